// What other modules may use of the ingest module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { localBrokerUrl } from './ingest.mqtt.ts';
export { ensurePartition } from './ingest.repository.ts';
export type { CommittedReading, IngestService } from './ingest.service.ts';
// The data import stores its batches with ingest's own statement (raw rows, rollups, newest values).
export { writeBatch, type ReadingRow } from './ingest.repository.ts';

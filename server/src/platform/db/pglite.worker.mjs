// Runs the embedded PGlite database on its own thread, so that a heavy query never blocks the
// server's event loop. Messages: {id, op: 'query'|'exec'|'close', sql, params} -> {id, result|error}.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const db = await PGlite.create(workerData.dataDir ?? 'memory://', {
  // Same JavaScript types as node-postgres with our parsers: int8 and numeric as numbers.
  parsers: { 20: Number, 1700: Number },
});
parentPort.postMessage({ ready: true });

parentPort.on('message', async (msg) => {
  try {
    if (msg.op === 'query') {
      const r = await db.query(msg.sql, msg.params ?? []);
      parentPort.postMessage({ id: msg.id, result: { rows: r.rows, affectedRows: r.affectedRows ?? 0 } });
    } else if (msg.op === 'exec') {
      await db.exec(msg.sql);
      parentPort.postMessage({ id: msg.id, result: { rows: [], affectedRows: 0 } });
    } else if (msg.op === 'close') {
      await db.close();
      parentPort.postMessage({ id: msg.id, result: { rows: [], affectedRows: 0 } });
    }
  } catch (err) {
    parentPort.postMessage({
      id: msg.id,
      error: {
        message: err?.message ?? String(err),
        code: err?.code,
        detail: err?.detail,
        constraint: err?.constraint,
      },
    });
  }
});

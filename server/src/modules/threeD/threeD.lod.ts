import { Worker } from 'node:worker_threads';

/**
 * A model's preview (a level of detail): the viewer draws it first, so a large site appears at once, and while the
 * camera moves, when a frame must come fast; the full model is drawn at rest. Models of up to PREVIEW_TRIANGLES
 * triangles get none (they are light enough as they are).
 */
export const PREVIEW_TRIANGLES = 60_000;

export type Preview = { bytes: Buffer; triangles: number };

type Reply = { bytes: Uint8Array; triangles: number } | { skipped: string } | { error: string };

/**
 * Simplifies a GLB's triangle meshes to about `target` triangles in a worker thread (meshoptimizer: the
 * simplifier keeps the shape within 2 % of the model's extent, and mesh borders). Answers null when the model is
 * small enough already or cannot be simplified (compressed geometry, unusual attributes): the viewer then draws
 * the full model only, as before.
 */
export function buildPreview(glb: Buffer, target = PREVIEW_TRIANGLES): Promise<Preview | null> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./threeD.lod.worker.mjs', import.meta.url));
    let done = false;
    const finish = (p: Preview | null): void => {
      if (done) return;
      done = true;
      resolve(p);
      void worker.terminate();
    };
    worker.once('message', (r: Reply) =>
      finish(
        'bytes' in r
          ? { bytes: Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength), triangles: r.triangles }
          : null,
      ),
    );
    worker.once('error', () => finish(null));
    worker.once('exit', () => finish(null));
    worker.postMessage({ bytes: new Uint8Array(glb.buffer, glb.byteOffset, glb.byteLength), target });
  });
}

// @ts-check
// Builds a model's preview: the same GLB with its triangle meshes simplified (meshoptimizer) to about a target
// number of triangles, every other property (materials, textures, nodes) kept. Runs in a worker thread so that a
// large upload does not stall the server's event loop. Message in: { bytes: Uint8Array, target: number };
// message out: { bytes: Uint8Array, triangles: number } | { skipped: string } | { error: string }.
import { parentPort } from 'node:worker_threads';
import { MeshoptSimplifier } from 'meshoptimizer';
import { NodeIO, Primitive } from '@gltf-transform/core';

/** @typedef {import('@gltf-transform/core').Primitive} Prim */
/** @typedef {import('@gltf-transform/core').Accessor} Accessor */

/** @param {Prim} p */
const trianglesOf = (p) => {
  const idx = p.getIndices();
  const pos = p.getAttribute('POSITION');
  return Math.floor((idx ? idx.getCount() : (pos?.getCount() ?? 0)) / 3);
};

/**
 * @param {Uint8Array} bytes
 * @param {number} target
 */
async function preview(bytes, target) {
  await MeshoptSimplifier.ready;
  const io = new NodeIO();
  const doc = await io.readBinary(bytes);
  const root = doc.getRoot();
  /** @type {Prim[]} */
  const prims = [];
  let total = 0;
  for (const mesh of root.listMeshes())
    for (const p of mesh.listPrimitives()) {
      if (p.getMode() !== Primitive.Mode.TRIANGLES || p.listTargets().length > 0) continue;
      const pos = p.getAttribute('POSITION');
      if (!pos || !(pos.getArray() instanceof Float32Array) || pos.getElementSize() !== 3) continue;
      prims.push(p);
      total += trianglesOf(p);
    }
  if (total <= target) return { skipped: 'small' };
  const ratio = target / total;
  const buffer = root.listBuffers()[0] ?? doc.createBuffer();
  for (const p of prims) {
    const pos = /** @type {Accessor} */ (p.getAttribute('POSITION'));
    const positions = /** @type {Float32Array} */ (pos.getArray());
    const idx = p.getIndices();
    const indices = idx
      ? Uint32Array.from(/** @type {ArrayLike<number>} */ (idx.getArray()))
      : Uint32Array.from({ length: pos.getCount() - (pos.getCount() % 3) }, (_, i) => i);
    const want = Math.max(3, Math.floor((indices.length * ratio) / 3) * 3);
    // The error bound (relative to the mesh's extent) lets the simplifier reach the count on noisy surfaces; the
    // border is kept so that meshes that meet keep meeting.
    let [out] = MeshoptSimplifier.simplify(indices, positions, 3, want, 0.02, ['LockBorder']);
    if (out.length > want * 1.5) [out] = MeshoptSimplifier.simplifySloppy(indices, positions, 3, null, want, 0.05);
    if (out.length === 0) continue;
    const [remap, unique] = MeshoptSimplifier.compactMesh(out);
    for (const semantic of p.listSemantics()) {
      const a = /** @type {Accessor} */ (p.getAttribute(semantic));
      const src = /** @type {import('@gltf-transform/core').TypedArray} */ (a.getArray());
      const size = a.getElementSize();
      const Ctor = /** @type {new (n: number) => import('@gltf-transform/core').TypedArray} */ (src.constructor);
      const dst = new Ctor(unique * size);
      for (let v = 0; v < remap.length; v++) {
        const to = /** @type {number} */ (remap[v]);
        if (to === 0xffffffff) continue;
        for (let k = 0; k < size; k++) dst[to * size + k] = /** @type {number} */ (src[v * size + k]);
      }
      const copy = doc
        .createAccessor(a.getName())
        .setType(a.getType())
        .setArray(dst)
        .setNormalized(a.getNormalized())
        .setBuffer(buffer);
      p.setAttribute(semantic, copy);
    }
    p.setIndices(
      doc
        .createAccessor()
        .setType('SCALAR')
        .setArray(unique < 65536 ? Uint16Array.from(out) : out)
        .setBuffer(buffer),
    );
  }
  // Accessors no longer used by any primitive (the full-detail ones) leave the file.
  for (const a of root.listAccessors()) if (a.listParents().every((x) => x === root)) a.dispose();
  let triangles = 0;
  for (const mesh of root.listMeshes())
    for (const p of mesh.listPrimitives()) if (p.getMode() === Primitive.Mode.TRIANGLES) triangles += trianglesOf(p);
  return { bytes: await io.writeBinary(doc), triangles };
}

parentPort?.on('message', (/** @type {{ bytes: Uint8Array; target: number }} */ m) => {
  preview(m.bytes, m.target).then(
    (r) => parentPort?.postMessage(r),
    (e) => parentPort?.postMessage({ error: e instanceof Error ? e.message : String(e) }),
  );
});

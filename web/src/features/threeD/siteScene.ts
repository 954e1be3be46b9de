import {
  AmbientLight,
  Box3,
  Color,
  DirectionalLight,
  GridHelper,
  HemisphereLight,
  InstancedMesh,
  Matrix4,
  MeshLambertMaterial,
  MeshStandardMaterial,
  Object3D,
  PerspectiveCamera,
  Raycaster,
  Scene,
  Sphere,
  SphereGeometry,
  Vector2,
  Vector3,
  WebGLRenderer,
  type Intersection,
} from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { TilesRenderer } from '3d-tiles-renderer';
import { ReorientationPlugin } from '3d-tiles-renderer/plugins';
import { FramePace } from './framePace.ts';

/** A device marker: where it stands and its colour (state). */
export interface Marker {
  id: number;
  color: string;
  position: { x: number; y: number; z: number } | null;
}

export interface SiteSceneOptions {
  /** A click on a marker (or on nothing: null). */
  onPick?: (deviceId: number | null) => void;
  /** Manage mode: markers can be dragged over the model; called with the new position. */
  onMove?: (deviceId: number, position: { x: number; y: number; z: number }) => void;
}

/**
 * A site's 3D scene: the model (GLB), devices as coloured spheres (one instanced mesh: 200 devices, one draw
 * call), orbit controls, picking and dragging. Frames are drawn on demand (a change, a camera move), so an idle
 * scene costs nothing; `spin()` keeps drawing (the bench measures frame times so).
 */
export class SiteScene {
  readonly renderer: WebGLRenderer;
  readonly scene = new Scene();
  readonly camera = new PerspectiveCamera(50, 1, 0.1, 100000);
  readonly controls: OrbitControls;
  private model: Object3D | null = null;
  /** The model's lighter level of detail, drawn instead of it while the camera moves (null: none loaded). */
  private lod: Object3D | null = null;
  private isMoving = false;
  /** The site's 3D Tiles tileset (streamed by screen error as the camera moves), or null. */
  private tiles: TilesRenderer | null = null;
  private grid: GridHelper | null = null;
  private markers: Marker[] = [];
  private mesh: InstancedMesh | null = null;
  private markerSize = 2;
  private readonly ray = new Raycaster();
  private readonly resize: ResizeObserver;
  private frame = 0;
  /** When the pending frame was asked for (performance.now()): how long it waited tells how loaded drawing is. */
  private askedAt = 0;
  /** The resolution while the camera moves, a step of MOTION_SCALES: adapted to how fast frames come. */
  private motionStep = 2;
  private readonly pace = new FramePace();
  private spinning = false;
  private dragging: number | null = null;
  private downAt: { x: number; y: number } | null = null;
  /** Frame times (ms) while spinning. */
  readonly frameTimes: number[] = [];
  private lastFrame = 0;

  constructor(
    private readonly host: HTMLElement,
    private readonly opts: SiteSceneOptions = {},
  ) {
    // No multisampling: with software GL (no GPU, as on many control-room PCs and in headless browsers) it
    // multiplies the cost of every pixel; while the camera moves, frames are drawn at a lower resolution (moving()).
    this.renderer = new WebGLRenderer({ antialias: false, powerPreference: 'high-performance' });
    this.renderer.setPixelRatio(this.fullRatio);
    this.renderer.domElement.style.display = 'block';
    this.renderer.domElement.setAttribute('data-testid', 'three-d-canvas');
    host.appendChild(this.renderer.domElement);
    this.scene.background = new Color('#e8eef3');
    this.scene.add(new HemisphereLight(0xffffff, 0x6b7a5a, 1.6));
    this.scene.add(new AmbientLight(0xffffff, 0.35));
    const sun = new DirectionalLight(0xffffff, 1.6);
    sun.position.set(1, 2, 1.2);
    this.scene.add(sun);
    this.camera.position.set(120, 90, 120);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.enableDamping = false;
    this.controls.addEventListener('change', () => this.invalidate());
    this.controls.addEventListener('start', () => this.moving(true));
    this.controls.addEventListener('end', () => this.moving(false));
    this.resize = new ResizeObserver(() => this.fit());
    this.resize.observe(host);
    const el = this.renderer.domElement;
    el.addEventListener('pointerdown', this.onDown);
    el.addEventListener('pointermove', this.onMoveEvent);
    el.addEventListener('pointerup', this.onUp);
    this.fit();
    this.setGround(200);
  }

  private get fullRatio(): number {
    return Math.min(window.devicePixelRatio, 2);
  }

  /**
   * While the camera moves, frames are drawn at a lower resolution (the step that keeps them coming at the display's
   * pace, see paced()); at rest, at full resolution (one frame then).
   */
  private moving(on: boolean): void {
    this.isMoving = on;
    this.pace.reset();
    this.showDetail();
    this.applyRatio();
  }

  /** The resolution drawn while the camera moves, as a fraction of the full one (the bench prints it). */
  get motionRatio(): number {
    return MOTION_SCALES[this.motionStep]!;
  }

  private applyRatio(): void {
    const ratio = this.isMoving ? this.fullRatio * MOTION_SCALES[this.motionStep]! : this.fullRatio;
    if (this.renderer.getPixelRatio() === ratio) return;
    this.renderer.setPixelRatio(ratio);
    this.fit();
  }

  /**
   * Dynamic resolution: a moving frame that waited long for its turn (software GL, a slow GPU) lowers the motion
   * resolution a step; frames that come at once raise it back. The step found is kept for the next move.
   */
  private paced(waited: number): void {
    if (!this.isMoving) return;
    const change = this.pace.add(waited);
    const next = Math.min(MOTION_SCALES.length - 1, Math.max(0, this.motionStep + change));
    if (next === this.motionStep) return;
    this.motionStep = next;
    this.pace.reset();
    this.applyRatio();
  }

  private fit(): void {
    const w = Math.max(1, this.host.clientWidth);
    const h = Math.max(1, this.host.clientHeight);
    this.renderer.setSize(w, h, false);
    this.renderer.domElement.style.width = `${w}px`;
    this.renderer.domElement.style.height = `${h}px`;
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.invalidate();
  }

  private setGround(size: number): void {
    if (this.grid) this.scene.remove(this.grid);
    this.grid = new GridHelper(size, 20, 0x9aa8b5, 0xc9d3dc);
    this.scene.add(this.grid);
  }

  /** The preview while moving (when there is one and the full model has come), the full model at rest. */
  private showDetail(): void {
    if (!this.lod || !this.model || this.lod === this.model) return;
    this.lod.visible = this.isMoving;
    this.model.visible = !this.isMoving;
    this.invalidate();
  }

  /**
   * Loads the full model over its preview (see loadModel): from then on the full model is drawn at rest and the
   * preview while the camera moves. Answers the load time in ms.
   */
  async loadDetail(url: string): Promise<number> {
    const started = performance.now();
    const gltf = await new GLTFLoader().loadAsync(url);
    if (!this.model) return performance.now() - started;
    this.lod = this.model;
    cheapen(this.lod);
    this.model = gltf.scene;
    this.scene.add(this.model);
    this.showDetail();
    this.renderNow();
    return performance.now() - started;
  }

  /**
   * Streams a 3D Tiles tileset (replacing the one shown), re-centred at the origin with its up as +y (a
   * georeferenced tileset is turned to its place's local frame); frames it when there is no model. Answers when the
   * first tiles are drawn, with the time in ms.
   */
  loadTileset(url: string, headers: Record<string, string>): Promise<number> {
    const started = performance.now();
    this.clearTileset();
    const tiles = new TilesRenderer(url);
    tiles.fetchOptions = { headers };
    tiles.registerPlugin(new ReorientationPlugin({ recenter: true }));
    tiles.setCamera(this.camera);
    tiles.setResolutionFromRenderer(this.camera, this.renderer);
    this.tiles = tiles;
    this.scene.add(tiles.group);
    const redraw = (): void => this.invalidate();
    tiles.addEventListener('needs-update', redraw);
    tiles.addEventListener('load-model', redraw);
    return new Promise((resolve, reject) => {
      tiles.addEventListener('load-root-tileset', () => {
        if (this.model) return;
        const sphere = new Sphere();
        if (!tiles.getBoundingSphere(sphere)) return;
        const r = Math.max(sphere.radius, 1);
        this.markerSize = r / 60;
        this.frame3d(new Vector3(0, 0, 0), r * 1.6);
        this.rebuildMarkers();
      });
      tiles.addEventListener('tiles-load-end', () => resolve(performance.now() - started));
      tiles.addEventListener('load-error', (e) => {
        if (!tiles.root) reject(e.error instanceof Error ? e.error : new Error(String(e.error)));
      });
      this.invalidate();
    });
  }

  clearTileset(): void {
    if (!this.tiles) return;
    this.scene.remove(this.tiles.group);
    this.tiles.dispose();
    this.tiles = null;
    this.invalidate();
  }

  /** Points the camera at a centre from a distance (as a model is framed). */
  private frame3d(centre: Vector3, span: number): void {
    if (this.grid) this.scene.remove(this.grid);
    this.grid = null;
    this.controls.target.copy(centre);
    this.camera.position.set(centre.x + span * 0.75, centre.y + span * 0.6, centre.z + span * 0.85);
    this.camera.near = span / 1000;
    this.camera.far = span * 20;
    this.camera.updateProjectionMatrix();
    this.controls.update();
  }

  /** Loads a GLB (replacing the model shown: a preview or the full model) and frames it; answers its load time in ms. */
  async loadModel(url: string): Promise<number> {
    const started = performance.now();
    const gltf = await new GLTFLoader().loadAsync(url);
    this.clearModel();
    this.model = gltf.scene;
    this.scene.add(this.model);
    const box = new Box3().setFromObject(this.model);
    const size = box.getSize(new Vector3());
    const centre = box.getCenter(new Vector3());
    const span = Math.max(size.x, size.z, size.y, 1);
    this.markerSize = span / 80;
    this.frame3d(centre, span);
    this.rebuildMarkers();
    this.renderNow();
    return performance.now() - started;
  }

  clearModel(): void {
    if (!this.model) return;
    for (const o of [this.model, this.lod]) {
      if (!o) continue;
      this.scene.remove(o);
      o.traverse((x) => {
        const m = x as { geometry?: { dispose(): void }; material?: { dispose(): void } | { dispose(): void }[] };
        m.geometry?.dispose();
        if (Array.isArray(m.material)) m.material.forEach((y) => y.dispose());
        else m.material?.dispose();
      });
    }
    this.model = null;
    this.lod = null;
    this.setGround(200);
    this.invalidate();
  }

  /** Sets every marker (placed ones are drawn). */
  setMarkers(markers: Marker[]): void {
    this.markers = markers;
    this.rebuildMarkers();
  }

  /** Recolours one marker (a live state change). */
  setColor(id: number, color: string): void {
    const m = this.markers.find((x) => x.id === id);
    if (!m) return;
    m.color = color;
    this.rebuildMarkers();
  }

  private placed(): Marker[] {
    return this.markers.filter((m) => m.position !== null);
  }

  private rebuildMarkers(): void {
    if (this.mesh) {
      this.scene.remove(this.mesh);
      this.mesh.geometry.dispose();
      (this.mesh.material as MeshLambertMaterial).dispose();
      this.mesh = null;
    }
    const placed = this.placed();
    if (placed.length) {
      const mesh = new InstancedMesh(new SphereGeometry(1, 12, 8), new MeshLambertMaterial(), placed.length);
      const mat = new Matrix4();
      const color = new Color();
      placed.forEach((m, i) => {
        const p = m.position!;
        const s = this.markerSize;
        mat.makeScale(s, s, s).setPosition(p.x, p.y + s, p.z);
        mesh.setMatrixAt(i, mat);
        mesh.setColorAt(i, color.set(m.color));
      });
      mesh.instanceMatrix.needsUpdate = true;
      if (mesh.instanceColor) mesh.instanceColor.needsUpdate = true;
      mesh.computeBoundingSphere();
      this.mesh = mesh;
      this.scene.add(mesh);
    }
    this.invalidate();
  }

  /** The marker under a screen point, or null. */
  pickAt(clientX: number, clientY: number): number | null {
    if (!this.mesh) return null;
    this.aim(clientX, clientY);
    const hit = this.ray.intersectObject(this.mesh, false)[0];
    return hit?.instanceId !== undefined ? (this.placed()[hit.instanceId]?.id ?? null) : null;
  }

  /** The model's surface under a screen point (or the ground plane y = 0 without a model), or null. */
  surfaceAt(clientX: number, clientY: number): { x: number; y: number; z: number } | null {
    this.aim(clientX, clientY);
    const solids = [this.model, this.tiles?.group].filter((o): o is Object3D => !!o);
    if (solids.length) {
      const hit: Intersection | undefined = this.ray.intersectObjects(solids, true)[0];
      return hit ? { x: round(hit.point.x), y: round(hit.point.y), z: round(hit.point.z) } : null;
    }
    const r = this.ray.ray;
    if (Math.abs(r.direction.y) < 1e-6) return null;
    const t = -r.origin.y / r.direction.y;
    if (t < 0) return null;
    const p = r.origin.clone().addScaledVector(r.direction, t);
    return { x: round(p.x), y: 0, z: round(p.z) };
  }

  /** Where a marker appears on screen (for its label), or null when behind the camera. */
  screenOf(id: number): { x: number; y: number } | null {
    const m = this.markers.find((x) => x.id === id);
    if (!m?.position) return null;
    const v = new Vector3(m.position.x, m.position.y + this.markerSize * 2.5, m.position.z).project(this.camera);
    if (v.z > 1) return null;
    return {
      x: ((v.x + 1) / 2) * this.host.clientWidth,
      y: ((1 - v.y) / 2) * this.host.clientHeight,
    };
  }

  /** Where a marker's centre appears in the box (px), or null. */
  markerScreen(id: number): { x: number; y: number } | null {
    const m = this.markers.find((x) => x.id === id);
    if (!m?.position) return null;
    const v = new Vector3(m.position.x, m.position.y + this.markerSize, m.position.z).project(this.camera);
    if (v.z > 1) return null;
    return { x: ((v.x + 1) / 2) * this.host.clientWidth, y: ((1 - v.y) / 2) * this.host.clientHeight };
  }

  /** The colour drawn at a point of the box (a fresh frame is drawn and read in the same task): [r, g, b]. */
  pixelAt(x: number, y: number): [number, number, number] {
    this.renderNow();
    const gl = this.renderer.getContext();
    const dpr = this.renderer.getPixelRatio();
    const px = new Uint8Array(4);
    gl.readPixels(
      Math.round(x * dpr),
      Math.round((this.host.clientHeight - y) * dpr),
      1,
      1,
      gl.RGBA,
      gl.UNSIGNED_BYTE,
      px,
    );
    return [px[0]!, px[1]!, px[2]!];
  }

  private aim(clientX: number, clientY: number): void {
    const r = this.renderer.domElement.getBoundingClientRect();
    this.ray.setFromCamera(
      new Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1),
      this.camera,
    );
  }

  private readonly onDown = (e: PointerEvent): void => {
    this.downAt = { x: e.clientX, y: e.clientY };
    if (!this.opts.onMove) return;
    const id = this.pickAt(e.clientX, e.clientY);
    if (id === null) return;
    this.dragging = id;
    this.controls.enabled = false;
    this.renderer.domElement.setPointerCapture(e.pointerId);
  };

  private readonly onMoveEvent = (e: PointerEvent): void => {
    if (this.dragging === null) return;
    const p = this.surfaceAt(e.clientX, e.clientY);
    const m = this.markers.find((x) => x.id === this.dragging);
    if (!p || !m) return;
    m.position = p;
    this.rebuildMarkers();
    this.opts.onMove?.(m.id, p);
  };

  private readonly onUp = (e: PointerEvent): void => {
    const was = this.dragging;
    this.dragging = null;
    this.controls.enabled = true;
    const down = this.downAt;
    this.downAt = null;
    const click = down && Math.hypot(e.clientX - down.x, e.clientY - down.y) < 5;
    if (was !== null) this.opts.onPick?.(was);
    else if (click) this.opts.onPick?.(this.pickAt(e.clientX, e.clientY));
  };

  /** Asks for a frame (at most one per display frame). */
  invalidate(): void {
    if (this.frame || this.spinning) return;
    this.askedAt = performance.now();
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.paced(performance.now() - this.askedAt);
      this.renderNow();
    });
  }

  /** Listeners called after every frame (labels follow their markers). */
  readonly afterRender = new Set<() => void>();

  renderNow(): void {
    if (this.tiles) {
      this.tiles.setResolutionFromRenderer(this.camera, this.renderer);
      this.tiles.update();
    }
    this.renderer.render(this.scene, this.camera);
    for (const l of this.afterRender) l();
  }

  /** Turns the camera around the model continuously, recording frame times, until `stop()`. */
  spin(): void {
    if (this.spinning) return;
    this.spinning = true;
    this.controls.autoRotate = true;
    this.controls.autoRotateSpeed = 6;
    this.moving(true);
    this.lastFrame = performance.now();
    const loop = (): void => {
      if (!this.spinning) return;
      const now = performance.now();
      this.frameTimes.push(now - this.lastFrame);
      this.paced(now - this.lastFrame);
      this.lastFrame = now;
      this.controls.update();
      this.renderNow();
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  }

  stop(): void {
    if (!this.spinning) return;
    this.spinning = false;
    this.controls.autoRotate = false;
    this.moving(false);
  }

  /** Triangles of the full model (of the preview while only that has come). */
  triangles(): number {
    let n = 0;
    this.model?.traverse((o) => {
      const g = (o as { geometry?: { index: { count: number } | null; attributes: { position?: { count: number } } } })
        .geometry;
      if (g) n += Math.floor((g.index ? g.index.count : (g.attributes.position?.count ?? 0)) / 3);
    });
    return n;
  }

  dispose(): void {
    this.stop();
    cancelAnimationFrame(this.frame);
    this.resize.disconnect();
    this.controls.dispose();
    this.clearModel();
    this.clearTileset();
    if (this.mesh) this.mesh.geometry.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}

const round = (v: number): number => Math.round(v * 100) / 100;

/** Resolutions while the camera moves, as fractions of the full pixel ratio (full first). */
const MOTION_SCALES = [1, 0.7, 0.5, 0.35, 0.25] as const;

/**
 * Gives a model Lambert materials (diffuse light only) with the same colour, texture and vertex colours: the
 * preview drawn while the camera moves, where physically based shading costs most per pixel in software GL.
 */
function cheapen(root: Object3D): void {
  root.traverse((o) => {
    const mesh = o as { material?: unknown };
    const swap = (m: unknown): unknown => {
      if (!(m instanceof MeshStandardMaterial)) return m;
      const l = new MeshLambertMaterial({
        color: m.color,
        map: m.map,
        vertexColors: m.vertexColors,
        side: m.side,
        transparent: m.transparent,
        opacity: m.opacity,
      });
      m.dispose();
      return l;
    };
    if (Array.isArray(mesh.material)) mesh.material = mesh.material.map(swap);
    else if (mesh.material) mesh.material = swap(mesh.material);
  });
}

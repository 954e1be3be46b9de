import {
  MathUtils,
  Mesh,
  MeshBasicMaterial,
  PerspectiveCamera,
  SRGBColorSpace,
  Scene,
  SphereGeometry,
  TextureLoader,
  Vector3,
  WebGLRenderer,
} from 'three';

/**
 * An equirectangular panorama seen from inside a sphere. Directions are (yaw, pitch) in degrees: yaw 0 is the
 * image's centre, positive to the right; pitch 0 the horizon, positive up. Drag to look, wheel to zoom.
 */
export class PanoViewer {
  private readonly renderer: WebGLRenderer;
  private readonly scene = new Scene();
  readonly camera = new PerspectiveCamera(75, 1, 1, 1100);
  private readonly material = new MeshBasicMaterial();
  private readonly resize: ResizeObserver;
  private frame = 0;
  yaw = 0;
  pitch = 0;
  private down: { x: number; y: number; yaw: number; pitch: number; moved: boolean } | null = null;
  readonly afterRender = new Set<() => void>();

  constructor(
    private readonly host: HTMLElement,
    private readonly onClick?: (yaw: number, pitch: number) => void,
  ) {
    this.renderer = new WebGLRenderer({ antialias: false });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    this.renderer.domElement.style.display = 'block';
    this.renderer.domElement.style.cursor = 'grab';
    this.renderer.domElement.setAttribute('data-testid', 'pano-canvas');
    host.appendChild(this.renderer.domElement);
    const geo = new SphereGeometry(500, 64, 32);
    geo.scale(-1, 1, 1);
    this.scene.add(new Mesh(geo, this.material));
    this.resize = new ResizeObserver(() => this.fit());
    this.resize.observe(host);
    const el = this.renderer.domElement;
    el.addEventListener('pointerdown', this.onDown);
    el.addEventListener('pointermove', this.onMove);
    el.addEventListener('pointerup', this.onUp);
    el.addEventListener('wheel', this.onWheel, { passive: false });
    this.fit();
  }

  async load(url: string): Promise<void> {
    const tex = await new TextureLoader().loadAsync(url);
    tex.colorSpace = SRGBColorSpace;
    this.material.map?.dispose();
    this.material.map = tex;
    this.material.needsUpdate = true;
    this.invalidate();
  }

  lookAt(yaw: number, pitch: number): void {
    this.yaw = yaw;
    this.pitch = pitch;
    this.invalidate();
  }

  /** The unit vector of a direction. */
  static dir(yaw: number, pitch: number): Vector3 {
    const a = Math.PI + MathUtils.degToRad(yaw);
    const p = MathUtils.degToRad(pitch);
    return new Vector3(Math.cos(a) * Math.cos(p), Math.sin(p), Math.sin(a) * Math.cos(p));
  }

  /** Where a direction appears in the box (px), or null when behind or outside the view. */
  project(yaw: number, pitch: number): { x: number; y: number } | null {
    const v = PanoViewer.dir(yaw, pitch).multiplyScalar(400);
    const look = PanoViewer.dir(this.yaw, this.pitch);
    if (v.clone().normalize().dot(look) <= 0.05) return null;
    v.project(this.camera);
    if (Math.abs(v.x) > 1.2 || Math.abs(v.y) > 1.2) return null;
    return { x: ((v.x + 1) / 2) * this.host.clientWidth, y: ((1 - v.y) / 2) * this.host.clientHeight };
  }

  /** The direction under a point of the box. */
  directionAt(clientX: number, clientY: number): { yaw: number; pitch: number } {
    const r = this.renderer.domElement.getBoundingClientRect();
    const v = new Vector3(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1, 0.5)
      .unproject(this.camera)
      .sub(this.camera.position)
      .normalize();
    let yaw = MathUtils.radToDeg(Math.atan2(v.z, v.x) - Math.PI);
    while (yaw < -180) yaw += 360;
    while (yaw > 180) yaw -= 360;
    const pitch = MathUtils.radToDeg(Math.asin(MathUtils.clamp(v.y, -1, 1)));
    return { yaw: Math.round(yaw * 10) / 10, pitch: Math.round(pitch * 10) / 10 };
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

  private readonly onDown = (e: PointerEvent): void => {
    this.down = { x: e.clientX, y: e.clientY, yaw: this.yaw, pitch: this.pitch, moved: false };
    this.renderer.domElement.setPointerCapture(e.pointerId);
    this.renderer.domElement.style.cursor = 'grabbing';
  };

  private readonly onMove = (e: PointerEvent): void => {
    const d = this.down;
    if (!d) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (Math.hypot(dx, dy) > 4) d.moved = true;
    const perPx = this.camera.fov / this.host.clientHeight;
    let yaw = d.yaw - dx * perPx;
    while (yaw < -180) yaw += 360;
    while (yaw > 180) yaw -= 360;
    this.lookAt(yaw, MathUtils.clamp(d.pitch + dy * perPx, -85, 85));
  };

  private readonly onUp = (e: PointerEvent): void => {
    const d = this.down;
    this.down = null;
    this.renderer.domElement.style.cursor = 'grab';
    if (d && !d.moved && this.onClick) {
      const at = this.directionAt(e.clientX, e.clientY);
      this.onClick(at.yaw, at.pitch);
    }
  };

  private readonly onWheel = (e: WheelEvent): void => {
    e.preventDefault();
    this.camera.fov = MathUtils.clamp(this.camera.fov + e.deltaY * 0.05, 30, 100);
    this.camera.updateProjectionMatrix();
    this.invalidate();
  };

  invalidate(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.camera.lookAt(PanoViewer.dir(this.yaw, this.pitch));
      this.renderer.render(this.scene, this.camera);
      for (const l of this.afterRender) l();
    });
  }

  dispose(): void {
    cancelAnimationFrame(this.frame);
    this.resize.disconnect();
    this.material.map?.dispose();
    this.material.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}

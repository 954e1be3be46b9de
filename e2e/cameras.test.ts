import { execFileSync, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  SHOTS,
  api,
  apiLogin,
  expectNoRawKeys,
  ingest,
  launchBrowser,
  settle,
  signedIn,
  startServer,
  type RunningServer,
  type Terminal,
} from './harness.ts';
import path from 'node:path';
import fs from 'node:fs';
import {
  TestRtspServer,
  publishTestStream,
  stopProcess,
  waitLive,
} from '../server/src/modules/cameras/cameras.testkit.ts';

const slow = { timeout: 90_000, interval: 500 };
const C = '/api/v2/data/camera';

/** ffmpeg children of the server process (the live remuxers and snapshot grabbers). */
function ffmpegChildren(pid: number): number {
  try {
    return execFileSync('ps', ['--ppid', String(pid), '-o', 'comm='], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.trim() === 'ffmpeg').length;
  } catch {
    return 0;
  }
}

/** The video of a tile: its playback time and a sample of its pixels (drawn into a canvas). */
async function frameOf(page: Page, cameraId: number): Promise<{ time: number; pixels: string }> {
  return page.evaluate((id) => {
    const v = document.querySelector(`[data-testid="live-tile-${id}"] video`) as HTMLVideoElement | null;
    if (!v || v.videoWidth === 0) return { time: 0, pixels: '' };
    const c = document.createElement('canvas');
    c.width = v.videoWidth;
    c.height = v.videoHeight;
    const g = c.getContext('2d');
    if (!g) return { time: v.currentTime, pixels: '' };
    g.drawImage(v, 0, 0);
    // The burned-in clock (top left) and the moving pattern.
    const d = g.getImageData(0, 0, Math.min(300, c.width), Math.min(90, c.height)).data;
    let h = 0;
    for (let i = 0; i < d.length; i += 4) h = (h * 31 + (d[i] ?? 0) + (d[i + 1] ?? 0) * 3) | 0;
    return { time: v.currentTime, pixels: String(h) };
  }, cameraId);
}

async function shotNow(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  // The sign-in's "welcome back" toast covers the top bar for a few seconds: let it go.
  await page
    .locator('.ant-message-notice')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
  // The pointer stays where the test last clicked: off the pictures, whose hover mask would darken one.
  await page.mouse.move(1, 1);
  await page.waitForTimeout(600); // the mask fades out
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/**
 * Cameras: the live grid plays a synthetic H.264 stream served by a small RTSP server of the test (frames advance:
 * the video's time moves and a sampled pixel changes), a camera that goes away is shown lost and plays again, 16
 * tiles at once; the group tree, the task screen with its gallery and an alert with its snapshot, in en, zh, ko.
 */
describe('cameras', () => {
  let server: RunningServer;
  let browser: Browser;
  let rtsp: TestRtspServer;
  let pub: ChildProcess;
  let token: string;
  let slope: number;
  let dam: number;
  const slopeCams: number[] = [];
  const damCams: number[] = [];
  let term: Terminal;
  let alertId = 0;

  beforeAll(async () => {
    rtsp = new TestRtspServer();
    await rtsp.listen();
    pub = publishTestStream(rtsp.url(), { size: '640x360' });
    server = await startServer({
      CAMERA_IDLE_SECONDS: '6',
      CAMERA_MAX_STREAMS: '24',
      CAMERA_MAX_STREAMS_PER_USER: '24',
    });
    browser = await launchBrowser();
    token = await apiLogin(server.url);
    interface RegionNode {
      code: string;
      children?: RegionNode[];
    }
    let node = (await api<RegionNode[]>(server.url, token, 'GET', '/api/v2/data/information/region/getTree'))[0]!;
    while (node.children?.length) node = node.children[0]!;
    const site = async (type: string, name: string) =>
      (
        await api<{ platformId: number }>(server.url, token, 'POST', `/api/v2/data/information/platform/${type}/add`, {
          name,
          regionCode: node.code,
          lon: 103.8,
          lat: 30.7,
        })
      ).platformId;
    slope = await site('disaster', 'K12 slope');
    dam = await site('reservoir', 'Hongshui dam');
    const group = async (name: string, parentId?: number) =>
      (
        await api<{ id: number }>(server.url, token, 'POST', `${C}/group/add`, {
          name,
          ...(parentId ? { parentId } : {}),
        })
      ).id;
    const yunnan = await group('Yunnan province');
    const kunming = await group('Kunming', yunnan);
    const slopes = await group('Highway slopes', kunming);
    const dams = await group('Reservoir dams', kunming);
    await group('Lijiang', yunnan);
    const add = async (groupId: number, platformId: number, name: string, n: number, extra = {}) =>
      (
        await api<{ id: number }>(server.url, token, 'POST', `${C}/camera/add`, {
          groupId,
          platformId,
          name,
          serialNumber: `SN-${platformId}-${n}`,
          channel: (n % 16) + 1,
          type: 'bullet',
          vendor: 'onvif',
          vmUser: 'viewer',
          vmPassword: 'Cam-pass-1',
          ip: '127.0.0.1',
          rtspUrl: rtsp.url(),
          principal: 'Li Wei',
          ...extra,
        })
      ).id;
    for (const [i, name] of ['Crest east', 'Crest west', 'Toe drain', 'Crack meter C3'].entries())
      slopeCams.push(await add(slopes, slope, name, i));
    // The first dam camera gives a sub stream (the test server serves the same picture under another path).
    rtsp.alias('/sub');
    for (let i = 0; i < 16; i++)
      damCams.push(await add(dams, dam, `Dam ${i + 1}`, i, i === 0 ? { subRtspUrl: rtsp.url('/sub') } : {}));
    // A device with a rule on the slope: a reading over it raises an alert, which gets the cameras' pictures.
    term = await api<Terminal>(server.url, token, 'POST', '/api/v2/data/information/terminal/add', {
      platformId: slope,
      name: 'K12 RTU',
      serial: 'K12-RTU-01',
      protocolType: 'HTTP',
    });
    const deviceId = (
      await api<{ deviceId: number }>(server.url, token, 'POST', '/api/v2/data/information/device/common/add', {
        deviceName: 'Water level W1',
        number: 'K12-W1',
        moduleId: 16,
        platformId: slope,
        terminalId: term.terminalId,
        ip: '10.0.7.17',
        port: 502,
      })
    ).deviceId;
    const contact = await api<{ id: number }>(server.url, token, 'POST', '/api/v2/data/alert/contract/add', {
      name: 'Duty engineer Li',
      email: 'duty@example.test',
      language: 'en',
    });
    const team = await api<{ id: number }>(server.url, token, 'POST', '/api/v2/data/alert/group/add', {
      name: 'Slope duty team',
      contactIds: String(contact.id),
      platformIds: String(slope),
    });
    await api(server.url, token, 'POST', '/api/v2/data/alert/manage/value/add', {
      groupId: team.id,
      deviceId,
      quantity: 'waterLevel',
      level: 4,
      valueType: 'threshold',
      value: 20,
      channels: 'mail',
      pushIntervalMinutes: 30,
      enabled: 1,
    });
    await waitLive(rtsp);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (pub) await stopProcess(pub);
    await rtsp?.close();
  });

  const open = async (locale: string, route: string): Promise<Page> => {
    const page = await signedIn(browser, server.url, locale);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/#${route}`);
    return page;
  };

  it('live view: frames advance, a camera that goes away reconnects, 16 tiles, nothing left over', async () => {
    const page = await open('en-US', `/camera/realtimecamera?platformId=${slope}`);
    const first = slopeCams[0]!;
    const tile = page.locator(`[data-testid="live-tile-${first}"]`);
    await expect.poll(() => tile.getAttribute('data-state'), slow).toBe('playing');
    await expect.poll(async () => (await frameOf(page, first)).time, slow).toBeGreaterThan(0.2);
    const a = await frameOf(page, first);
    await page.waitForTimeout(2500);
    const b = await frameOf(page, first);
    expect(b.time).toBeGreaterThan(a.time + 1);
    expect(b.pixels).not.toBe(a.pixels);
    for (const id of slopeCams)
      await expect
        .poll(() => page.locator(`[data-testid="live-tile-${id}"]`).getAttribute('data-state'), slow)
        .toBe('playing');
    await page.waitForTimeout(1500);
    expect(await tile.getAttribute('data-quality')).toBe('main');
    await expectNoRawKeys(page);
    await shotNow(page, 'cameras-live-4-en-1280');

    // The camera goes away: the tiles say so; it comes back: they play again.
    await stopProcess(pub);
    rtsp.dropAll();
    await expect.poll(() => tile.getAttribute('data-state'), slow).toBe('lost');
    await page.locator('[data-testid="tile-lost"]').first().waitFor();
    await shotNow(page, 'cameras-live-lost-en-1280');
    pub = publishTestStream(rtsp.url(), { size: '640x360' });
    await waitLive(rtsp);
    await expect.poll(() => tile.getAttribute('data-state'), slow).toBe('playing');
    const c = await frameOf(page, first);
    await page.waitForTimeout(2500);
    expect((await frameOf(page, first)).time).toBeGreaterThan(c.time + 0.5);

    // Sixteen at once: the dam's cameras.
    await page.goto(`${server.url}/#/camera/realtimecamera`);
    await page.locator('[data-testid="live-site"]').click();
    await page.locator('.ant-select-item-option[title="Hongshui dam"]').click();
    for (const id of damCams)
      await expect
        .poll(() => page.locator(`[data-testid="live-tile-${id}"]`).getAttribute('data-state'), slow)
        .toBe('playing');
    // Sixteen small tiles play the sub stream of the camera that gives one, the main stream of the others; the
    // four tiles above played main streams.
    expect(await page.locator(`[data-testid="live-tile-${damCams[0]}"]`).getAttribute('data-quality')).toBe('sub');
    expect(await page.locator(`[data-testid="live-tile-${damCams[1]}"]`).getAttribute('data-quality')).toBe('main');
    expect(rtsp.requests.some((r) => r.includes('/sub'))).toBe(true);
    await page.waitForTimeout(3000);
    await shotNow(page, 'cameras-live-16-en-1280');
    await page.close();
    // Nobody watches: every ffmpeg of the server ends and the RTSP server keeps no player connection.
    await expect.poll(() => ffmpegChildren(server.proc.pid ?? 0), slow).toBe(0);
    await expect.poll(() => rtsp.players(), slow).toBe(0);
  }, 300_000);

  it('the live grid in zh and ko', async () => {
    for (const locale of ['zh-CN', 'ko-KR']) {
      const page = await open(locale, `/camera/realtimecamera?platformId=${slope}`);
      await expect
        .poll(() => page.locator(`[data-testid="live-tile-${slopeCams[0]}"]`).getAttribute('data-state'), slow)
        .toBe('playing');
      await page.waitForTimeout(2000);
      await expectNoRawKeys(page);
      await shotNow(page, `cameras-live-4-${locale}-1280`);
      await page.close();
    }
  }, 180_000);

  it('the group tree, the task screen with its gallery, and an alert with its snapshot', async () => {
    // The browser's logins ended the script's session (one session per account): sign in again.
    token = await apiLogin(server.url);
    await api(server.url, token, 'POST', `${C}/task/add`, {
      name: 'Morning safety record',
      cameraIds: slopeCams.join(','),
      times: '08:00,17:30',
      retentionDays: 90,
    });
    await api(server.url, token, 'POST', `${C}/snapshot/take`, { cameraId: slopeCams[0] });
    await api(server.url, token, 'POST', `${C}/snapshot/take`, { cameraId: slopeCams[0] });
    await ingest(server.url, term, 'K12-W1', [{ ts: Date.now(), values: { waterLevel: 21.4 } }]);
    await expect
      .poll(async () => {
        const r = await api<{ list: { alertId: number | null; media: string }[] }>(
          server.url,
          token,
          'GET',
          `${C}/snapshot/getListPage`,
          { platformId: slope },
        );
        alertId = r.list.find((s) => s.alertId !== null)?.alertId ?? 0;
        return r.list.filter((s) => s.alertId === alertId && s.media === 'jpeg').length;
      }, slow)
      .toBe(slopeCams.length);
    // Then a clip of each camera (CAMERA_ALERT_CLIP_SECONDS, 10 s by default, from the alert on).
    await expect
      .poll(
        async () =>
          (
            await api<{ list: { media: string }[] }>(server.url, token, 'GET', `${C}/snapshot/getListPage`, {
              alertId,
            })
          ).list.filter((s) => s.media === 'mp4').length,
        { timeout: 90_000, interval: 1000 },
      )
      .toBe(slopeCams.length);
    for (const locale of ['en-US', 'zh-CN', 'ko-KR']) {
      const groups = await open(locale, '/camera/cameraGroup');
      await groups
        .locator('[data-testid="group-' + '1"]')
        .first()
        .waitFor()
        .catch(() => undefined);
      await expect
        .poll(() => groups.locator('[data-testid="camera-group-tree"]').first().textContent(), slow)
        .toContain('Highway slopes');
      await groups.locator('[data-testid="camera-group-tree"]').getByText('Highway slopes').first().click();
      await groups.locator('.ant-alert').waitFor();
      await settle(groups);
      await expectNoRawKeys(groups);
      await shotNow(groups, `cameras-groups-${locale}-1280`);
      await groups.close();

      const tasks = await open(locale, '/camera/cameraTask');
      await expect
        .poll(() => tasks.locator('[data-testid="task-table"]').textContent(), slow)
        .toContain('Morning safety record');
      await tasks.locator('[data-testid="gallery-camera"]').click();
      await tasks.locator('.ant-select-item-option[title="Crest east · K12 slope"]').click();
      await expect.poll(() => tasks.locator('[data-testid="camera-gallery"] img').count(), slow).toBe(3);
      // The alert's clip of the camera is a video that plays: its time moves.
      const clip = tasks.locator('[data-testid="camera-gallery"] video[data-testid="snapshot-clip"]');
      await expect.poll(() => clip.count(), slow).toBe(1);
      await clip.evaluate((v) => (v as HTMLVideoElement).play());
      await expect.poll(() => clip.evaluate((v) => (v as HTMLVideoElement).currentTime), slow).toBeGreaterThan(0.5);
      expect(await tasks.locator('[data-testid="snapshot-clip-duration"]').textContent()).toMatch(/\d/);
      await clip.evaluate((v) => (v as HTMLVideoElement).pause());
      await settle(tasks);
      await expectNoRawKeys(tasks);
      await shotNow(tasks, `cameras-tasks-${locale}-1280`);
      await tasks.close();

      const alert = await open(locale, `/camera/alertSnapshot?alertId=${alertId}`);
      await alert.locator('[data-testid="alert-card"]').waitFor();
      await expect
        .poll(() => alert.locator('[data-testid="alert-snapshots"] img').count(), slow)
        .toBe(slopeCams.length);
      await settle(alert);
      await expectNoRawKeys(alert);
      await shotNow(alert, `cameras-alert-${locale}-1280`);
      await alert.close();

      // The alerts screen: the alert's drawer shows the pictures taken when it fired, loaded.
      const alerts = await open(locale, `/alert/alert?id=${alertId}`);
      const pictures = alerts.locator('[data-testid="alert-drawer"] [data-testid="alert-snapshots"]');
      await pictures.waitFor({ timeout: 60_000 });
      await expect
        .poll(
          () =>
            pictures
              .locator('[data-testid="alert-snapshot"] img')
              .evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length),
          slow,
        )
        .toBe(slopeCams.length);
      expect(await pictures.textContent()).toContain('Crest east');
      await pictures.scrollIntoViewIfNeeded();
      await settle(alerts);
      await expectNoRawKeys(alerts);
      await shotNow(alerts, `cameras-alert-drawer-${locale}-1280`);
      await alerts.close();
    }

    // Image comparison: the slope's camera snapshots are pictures to compare, drawn in the report on screen.
    const ic = await open('en-US', '/monitor/imageComparison');
    const listOpen = '.ant-select-dropdown:not(.ant-select-dropdown-hidden)';
    await ic.locator('[data-testid="ic-site"]').click();
    await ic.locator(`${listOpen} .ant-select-item-option[title="K12 slope"]`).click();
    await expect.poll(() => ic.locator(listOpen).count(), slow).toBe(0);
    for (const [which, nth] of [
      ['before', -1],
      ['after', 0],
    ] as const) {
      await ic.locator(`[data-testid="ic-${which}"]`).click();
      const options = ic.locator(`${listOpen} .ant-select-item-option[title^="Camera Crest east"]`);
      await expect.poll(() => options.count(), slow).toBeGreaterThan(1);
      await (nth < 0 ? options.last() : options.first()).click();
      await expect.poll(() => ic.locator(listOpen).count(), slow).toBe(0);
    }
    await ic.locator('[data-testid="ic-run"]').click();
    const view = ic.locator('[data-testid="report-view"]');
    await view.waitFor();
    await expect
      .poll(
        () =>
          view
            .locator('img')
            .evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length),
        slow,
      )
      .toBe(2);
    expect(await view.textContent()).toContain('Camera Crest east');
    await settle(ic);
    await expectNoRawKeys(ic);
    await shotNow(ic, 'cameras-image-comparison-en-US-1280');
    await ic.close();
  }, 300_000);
});

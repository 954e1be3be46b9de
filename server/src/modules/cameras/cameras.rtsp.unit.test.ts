import { describe, expect, it } from 'vitest';
import { rtspAddress, servedQuality, type RtspSource } from './cameras.rtsp.ts';

const camera = (c: Partial<RtspSource>): RtspSource => ({
  vendor: 'hikvision',
  ip: '10.0.0.7',
  channel: 3,
  rtspUrl: null,
  subRtspUrl: null,
  vmUser: null,
  ...c,
});

describe('camera stream addresses', () => {
  it("uses the vendors' main and sub stream paths", () => {
    const both = (c: RtspSource) => [rtspAddress(c, null), rtspAddress(c, null, 'sub')];
    expect(both(camera({}))).toEqual([
      'rtsp://10.0.0.7:554/Streaming/Channels/301',
      'rtsp://10.0.0.7:554/Streaming/Channels/302',
    ]);
    expect(both(camera({ vendor: 'dahua' }))).toEqual([
      'rtsp://10.0.0.7:554/cam/realmonitor?channel=3&subtype=0',
      'rtsp://10.0.0.7:554/cam/realmonitor?channel=3&subtype=1',
    ]);
    expect(both(camera({ vendor: 'uniview', ip: 'fe80::1' }))).toEqual([
      'rtsp://[fe80::1]:554/unicast/c3/s0/live',
      'rtsp://[fe80::1]:554/unicast/c3/s1/live',
    ]);
  });

  it('plays a sub stream only where there is one; the main stream otherwise', () => {
    const onvif = camera({ vendor: 'onvif', rtspUrl: 'rtsp://10.0.0.9/main' });
    expect(servedQuality(onvif, 'sub')).toBe('main');
    expect(rtspAddress(onvif, null, 'sub')).toBe('rtsp://10.0.0.9/main');
    const onvifSub = { ...onvif, subRtspUrl: 'rtsp://10.0.0.9/sub' };
    expect(servedQuality(onvifSub, 'sub')).toBe('sub');
    expect(rtspAddress(onvifSub, null, 'sub')).toBe('rtsp://10.0.0.9/sub');
    expect(rtspAddress(onvifSub, null, 'main')).toBe('rtsp://10.0.0.9/main');
    // A vendor camera given its own main address (a forwarded port, say) has no known sub stream.
    expect(servedQuality(camera({ rtspUrl: 'rtsp://gw.example:8554/cam3' }), 'sub')).toBe('main');
    expect(servedQuality(camera({}), 'main')).toBe('main');
  });

  it('puts the credentials in the address, encoded', () => {
    expect(rtspAddress(camera({ vmUser: 'ops@site' }), 'p/ss:w', 'sub')).toBe(
      'rtsp://ops%40site:p%2Fss%3Aw@10.0.0.7:554/Streaming/Channels/302',
    );
  });
});

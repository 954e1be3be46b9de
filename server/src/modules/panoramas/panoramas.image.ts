/** The type and pixel size of a JPEG or PNG, read from its header (PNG IHDR; JPEG's first SOF marker). */
export interface ImageInfo {
  ext: 'jpg' | 'png';
  width: number;
  height: number;
}

const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function imageInfo(buf: Buffer): ImageInfo | null {
  if (buf.length >= 24 && buf.subarray(0, 8).equals(PNG_SIG) && buf.toString('latin1', 12, 16) === 'IHDR') {
    const width = buf.readUInt32BE(16);
    const height = buf.readUInt32BE(20);
    return width > 0 && height > 0 ? { ext: 'png', width, height } : null;
  }
  if (buf.length >= 4 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) {
    let at = 2;
    while (at + 4 <= buf.length) {
      if (buf[at] !== 0xff) return null;
      const marker = buf[at + 1]!;
      if (marker === 0xff) {
        at += 1;
        continue;
      }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        at += 2;
        continue;
      }
      const len = buf.readUInt16BE(at + 2);
      if (len < 2) return null;
      // SOF0..SOF15 except DHT (c4), JPG (c8) and DAC (cc).
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        if (at + 9 > buf.length) return null;
        const height = buf.readUInt16BE(at + 5);
        const width = buf.readUInt16BE(at + 7);
        return width > 0 && height > 0 ? { ext: 'jpg', width, height } : null;
      }
      if (marker === 0xda || marker === 0xd9) return null;
      at += 2 + len;
    }
  }
  return null;
}

/** Equirectangular: the width is twice the height (one pixel of rounding allowed). */
export const isEquirectangular = (i: ImageInfo): boolean => Math.abs(i.width - 2 * i.height) <= 1;

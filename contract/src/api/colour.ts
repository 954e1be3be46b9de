/**
 * Colour codes have one format: `#rrggbb`, lower-case. Every colour taken in (a level colour, a setting) goes
 * through `colourCode` / `zColour`, and every colour answered comes from values in that format (the alert level
 * catalogue, ALERT_LEVEL_COLOURS).
 */
import { z } from 'zod';

/**
 * A colour code in the one format `#rrggbb` (lower-case), from `#RRGGBB`, `RRGGBB`, `#RGB` or `RGB` in any case,
 * blanks around it ignored (spec §4 writes them as `CC0033`). null when it is not a colour code.
 */
export function colourCode(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(input.trim());
  if (!m) return null;
  const h = m[1]!.toLowerCase();
  return `#${h.length === 3 ? h[0]! + h[0]! + h[1]! + h[1]! + h[2]! + h[2]! : h}`;
}

/** A colour field: any form colourCode reads, validated and normalised to `#rrggbb` lower-case. */
export const zColour = (): z.ZodPipe<z.ZodString, z.ZodTransform<string, string>> =>
  z.string().transform((v, ctx) => {
    const c = colourCode(v);
    if (c === null) {
      ctx.addIssue({ code: 'invalid_format', format: 'regex', pattern: '^#?([0-9a-f]{3}|[0-9a-f]{6})$', input: v });
      return z.NEVER;
    }
    return c;
  });

import { describe, expect, it } from 'vitest';
import { ALERT_LEVEL_COLOURS, ALERT_LEVELS } from '../alerts/index.ts';
import { colourCode, zColour } from './colour.ts';

describe('colour codes: one format, #rrggbb lower-case', () => {
  it('normalises every accepted input form', () => {
    for (const v of ['CC0033', '#CC0033', 'cc0033', '#cc0033', ' #Cc0033 ']) expect(colourCode(v)).toBe('#cc0033');
    expect(colourCode('#F63')).toBe('#ff6633');
    expect(colourCode('0099ff')).toBe('#0099ff');
  });

  it('refuses what is not a colour code', () => {
    for (const v of ['', '#', 'red', '#12345', '#1234567', 'GG0033', '##cc0033', 123, null])
      expect(colourCode(v)).toBeNull();
    expect(zColour().safeParse('red').success).toBe(false);
    expect(zColour().parse('FF6600')).toBe('#ff6600');
  });

  it('answers the level colours of spec §4 in that format', () => {
    expect(ALERT_LEVELS.map((l) => ALERT_LEVEL_COLOURS[l].hex)).toEqual(['#0099ff', '#ffcc33', '#ff6600', '#cc0033']);
    for (const l of ALERT_LEVELS) expect(colourCode(ALERT_LEVEL_COLOURS[l].hex)).toBe(ALERT_LEVEL_COLOURS[l].hex);
  });
});

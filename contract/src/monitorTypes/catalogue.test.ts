import { describe, expect, it } from 'vitest';
import { COMMON_QUANTITIES, isMonitorTypeId, MONITOR_TYPES, monitorTypeLabel, quantitiesOf } from './catalogue.ts';

describe('monitor type catalogue', () => {
  it('holds the ids of spec §1 and none of the unlisted ones', () => {
    const ids = MONITOR_TYPES.map((m) => m.moduleId);
    expect(ids).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 24, 26, 27, 30, 32, 33, 35, 36, 37,
    ]);
    for (const absent of [0, 18, 21, 22, 23, 25, 28, 29, 31, 34, 38]) expect(isMonitorTypeId(absent)).toBe(false);
    expect(new Set(MONITOR_TYPES.map((m) => m.code)).size).toBe(MONITOR_TYPES.length);
  });

  it('labels every type and quantity in en, zh and ko, with unique quantity keys per type', () => {
    for (const m of MONITOR_TYPES) {
      expect(m.label.en && m.label.zh && m.label.ko, String(m.moduleId)).toBeTruthy();
      const keys = quantitiesOf(m.moduleId).map((q) => q.key);
      expect(new Set(keys).size, String(m.moduleId)).toBe(keys.length);
      for (const q of quantitiesOf(m.moduleId)) {
        expect(q.label.en && q.label.zh && q.label.ko, q.key).toBeTruthy();
        expect(q.key).toMatch(/^[A-Za-z][A-Za-z0-9]*$/);
      }
    }
  });

  it('answers the quantities a device reports, with the default units of spec §9', () => {
    const units = (id: number) => Object.fromEntries(quantitiesOf(id).map((q) => [q.key, q.unit]));
    expect(units(1)).toEqual({ dN: 'mm', dE: 'mm', dH: 'mm', sats: '', pdop: '', fix: '', voltage: 'V', battery: '%' });
    expect(units(2)).toMatchObject({ rainfall: 'mm' });
    for (const id of [3, 11, 16]) expect(units(id)).toMatchObject({ waterLevel: 'm' });
    for (const id of [4, 12]) expect(units(id)).toMatchObject({ flow: 'L/s' });
    for (const id of [10, 17]) expect(units(id)).toMatchObject({ pressure: 'kPa' });
    expect(units(6)).toMatchObject({ depth: 'm' });
    expect(units(9)).toMatchObject({ tiltX: '°', tiltY: '°' });
    expect(units(14)).toMatchObject({ moisture: '%' });
    expect(units(36)).toMatchObject({ velocity: 'mm/s', frequency: 'Hz' });
    expect(Object.keys(units(32))).toEqual([
      'pH',
      'conductivity',
      'turbidity',
      'dissolvedOxygen',
      'ammoniaNitrogen',
      'totalPhosphorus',
      'totalNitrogen',
      'voltage',
      'battery',
    ]);
    expect(quantitiesOf(18)).toEqual([]);
    expect(quantitiesOf(5).slice(-2)).toEqual(COMMON_QUANTITIES);
    expect(monitorTypeLabel(32, 'ko')).toBe('수질');
    expect(monitorTypeLabel(18, 'en')).toBe('');
  });
});

import {
  ALERT_LEVEL_COLOURS,
  SITE_STATE_COLOURS,
  quantitiesOf,
  type AlertLevel,
  type DeviceState,
} from '@geosentry/contract';
import { currentLanguage } from '../../shared/i18n.ts';
import { formatValue } from '../../shared/format.ts';

/** How a device looks in 3D and in panoramas: its colour and its main value. */

/** A device's colour: its open alert's level colour when in alert or alarm, else its state's colour. */
export function deviceColour(state: DeviceState, alertLevel: number | null): string {
  if ((state === 'alert' || state === 'alarm') && alertLevel && alertLevel >= 1 && alertLevel <= 4)
    return ALERT_LEVEL_COLOURS[alertLevel as AlertLevel].hex;
  return SITE_STATE_COLOURS[state];
}

/** The quantity a device is shown by: its type's first quantity with a value (battery and voltage aside). */
export function mainQuantity(moduleId: number, values: Record<string, number>): string | undefined {
  const qs = quantitiesOf(moduleId).filter((x) => x.key !== 'battery' && x.key !== 'voltage');
  return (qs.find((x) => values[x.key] !== undefined) ?? qs[0])?.key;
}

/** A quantity's label and unit in the current language. */
export function quantityLabel(moduleId: number, key: string): { label: string; unit: string } {
  const q = quantitiesOf(moduleId).find((x) => x.key === key);
  return { label: q ? q.label[currentLanguage()] : key, unit: q?.unit ?? '' };
}

/** "12.5 mm" for a device's main quantity, or '-' without a value. */
export function mainValueText(moduleId: number, values: Record<string, number>): string {
  const key = mainQuantity(moduleId, values);
  if (!key || values[key] === undefined) return '-';
  const { unit } = quantityLabel(moduleId, key);
  return `${formatValue(values[key])}${unit ? ` ${unit}` : ''}`;
}

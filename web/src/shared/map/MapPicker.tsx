import { lazy, Suspense, useEffect, useState } from 'react';
import type { MapPickerProps } from './MapPickerDialog.tsx';

export type { MapPickerProps } from './MapPickerDialog.tsx';

// Leaflet (about 40 KiB compressed) and the dialog load when the picker first opens, not with the form that has it.
const MapPickerDialog = lazy(() => import('./MapPickerDialog.tsx').then((m) => ({ default: m.MapPickerDialog })));

/**
 * Picks a point on a Leaflet map in a modal (MapPickerDialog.tsx): click the map, type latitude and longitude, or
 * paste a 'lat, lon' pair. Nothing is loaded before it first opens; it then stays, so it closes with its animation.
 * Test hooks: see MapPickerDialog.
 */
export function MapPicker(props: MapPickerProps) {
  const [used, setUsed] = useState(props.open);
  useEffect(() => {
    if (props.open) setUsed(true);
  }, [props.open]);
  if (!used && !props.open) return null;
  return (
    <Suspense fallback={null}>
      <MapPickerDialog {...props} />
    </Suspense>
  );
}

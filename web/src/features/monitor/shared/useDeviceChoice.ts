import { useSearchParams } from 'react-router-dom';
import type { DeviceOption } from '@geosentry/contract';

/** The device a screen shows: `?deviceId=` when it is among the site's devices, else the first one. */
export function useChosenDevice(
  devices: readonly DeviceOption[] | undefined,
): [DeviceOption | undefined, (id: number | undefined) => void] {
  const [search, setSearch] = useSearchParams();
  const wanted = Number(search.get('deviceId'));
  const list = devices ?? [];
  const chosen = list.find((d) => d.deviceId === wanted) ?? list[0];
  const set = (id: number | undefined) =>
    setSearch(
      (p) => {
        const n = new URLSearchParams(p);
        if (id === undefined) n.delete('deviceId');
        else n.set('deviceId', String(id));
        return n;
      },
      { replace: true },
    );
  return [chosen, set];
}

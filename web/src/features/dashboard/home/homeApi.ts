import { useCallback, useEffect, useMemo, useRef } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useLocation, useSearchParams } from 'react-router-dom';
import { dashboardRoutes, regionsRoutes, type HomeData } from '@geosentry/contract';
import { call } from '../../../shared/api.ts';
import { currentLanguage } from '../../../shared/i18n.ts';
import { onSocketMessage, useSiteReadings, useSocketConnected, type SiteEvent } from '../../../shared/socket.ts';

/** While events arrive, home reads again at most once per THROTTLE_MS; without events, once per SAFETY_MS. */
export const THROTTLE_MS = 2_500;
export const SAFETY_MS = 60_000;
/** The weather of a site changes with its readings: read again every WEATHER_MS. */
const WEATHER_MS = 60_000;

export const homeKeys = {
  home: (regionCode: string | undefined, zone: string) => ['dashboard', 'home', regionCode ?? '', zone] as const,
  weather: (platformId: number | undefined) => ['dashboard', 'weather', platformId ?? 0] as const,
  regions: (lang: string) => ['regions', 'tree', lang] as const,
};

/** Home's reads run side by side with the layout's: an identical read in flight is kept, not cancelled. */
const keep = { keepEarlier: true } as const;

/** Everything home shows, from one call, in the caller's scope narrowed to a region. */
export function useHome(regionCode: string | undefined, zone: string) {
  return useQuery({
    queryKey: homeKeys.home(regionCode, zone),
    queryFn: () => call(dashboardRoutes.home, { regionCode, timeZone: zone }, keep),
    placeholderData: keepPreviousData,
    refetchInterval: SAFETY_MS,
    staleTime: 2_000,
  });
}

/** The region tree (shared cache key with the regions feature's hook: names come in the caller's language). */
export function useRegions() {
  const lang = currentLanguage();
  return useQuery({
    queryKey: homeKeys.regions(lang),
    queryFn: () => call(regionsRoutes.tree, {}, keep),
    staleTime: 5 * 60_000,
  });
}

/** A site's weather (the first site in scope without one). */
export function useWeather(platformId: number | undefined, enabled: boolean) {
  return useQuery({
    queryKey: homeKeys.weather(platformId),
    queryFn: () => call(dashboardRoutes.weather, { platformId }, { ...keep, silent: true }),
    refetchInterval: WEATHER_MS,
    staleTime: 10_000,
    enabled,
  });
}

/**
 * A function that runs `fn` at most once per `ms`: the first call in a quiet period runs it at the window's end
 * (at once when the last run is older than `ms`), later calls inside the window are folded into that one run.
 */
function useThrottled(fn: () => void, ms: number): () => void {
  const latest = useRef(fn);
  latest.current = fn;
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    if (timer.current !== undefined) return;
    const wait = Math.max(0, last.current + ms - Date.now());
    timer.current = setTimeout(() => {
      timer.current = undefined;
      last.current = Date.now();
      latest.current();
    }, wait);
  }, [ms]);
}

/**
 * Keeps home live: device state changes of its sites (the session socket's site subscription) and every alert or
 * alert status change the user may see (sent to every permitted console) read home again, throttled; a reconnect
 * reads it again (events of the gap are lost). Readings themselves change no count and are ignored.
 */
export function useHomeLive(data: HomeData | undefined, refetch: () => unknown): { connected: boolean } {
  const again = useThrottled(() => void refetch(), THROTTLE_MS);
  const ids = useMemo(() => (data ? data.map.map((s) => s.platformId) : null), [data]);
  const onEvent = useCallback(
    (e: SiteEvent) => {
      if (e.type === 'deviceState') again();
    },
    [again],
  );
  const { connected } = useSiteReadings(ids && ids.length > 0 ? ids : null, onEvent);
  useEffect(
    () =>
      onSocketMessage((m) => {
        const type = typeof m === 'object' && m !== null ? (m as { type?: unknown }).type : null;
        if (type === 'alert' || type === 'alertStatus') again();
      }),
    [again],
  );
  const live = useSocketConnected();
  const was = useRef(live);
  useEffect(() => {
    if (live && !was.current && data) again();
    was.current = live;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only on a change of the connection
  }, [live]);
  return { connected };
}

const HOME_PATH = '/home';

/**
 * The chosen region, kept in the address (`?regionCode=`) so a refresh or a shared link keeps it. Home is a view
 * kept alive behind other tabs: it reads and writes the address only while it is the shown view; coming back through
 * the menu (an address without the parameter) writes the current choice back.
 */
export function useRegionParam(): [string | undefined, (code: string | undefined) => void] {
  const location = useLocation();
  const [search, setSearch] = useSearchParams();
  const here = location.pathname === HOME_PATH;
  const fromUrl = here ? (search.get('regionCode') ?? undefined) : undefined;
  const chosen = useRef<string | undefined>(fromUrl);
  const hadParam = here && search.has('regionCode');
  if (here && hadParam) chosen.current = fromUrl;
  const setRef = useRef(setSearch);
  setRef.current = setSearch;

  useEffect(() => {
    if (!here || hadParam || chosen.current === undefined) return;
    const next = new URLSearchParams(location.search);
    next.set('regionCode', chosen.current);
    setRef.current(next, { replace: true });
  }, [here, hadParam, location.search]);

  const set = useCallback((code: string | undefined) => {
    chosen.current = code;
    const next = new URLSearchParams(window.location.hash.split('?')[1] ?? '');
    if (code) next.set('regionCode', code);
    else next.delete('regionCode');
    setRef.current(next, { replace: true });
  }, []);
  return [chosen.current, set];
}

import { useQuery } from '@tanstack/react-query';
import { sessionRoutes, type PublicConfig } from '@geosentry/contract';
import { call } from './api.ts';
import { useSession } from './session.ts';

export const PUBLIC_CONFIG_KEY = ['publicConfig'] as const;

/** Titles, footer and login options (public; cached for the page's life). */
export function usePublicConfig(): PublicConfig | undefined {
  return useQuery({
    queryKey: PUBLIC_CONFIG_KEY,
    queryFn: () => call(sessionRoutes.publicConfig, {}, { keepEarlier: true, silent: true }),
    staleTime: Infinity,
    retry: 2,
  }).data;
}

export interface Branding {
  systemTitle: string;
  projectTitle: string;
  /** Custom icon of the deployment, or the bundled logo. */
  logo: string;
  copyright: string;
  supportPhone: string;
}

/** The titles and logo to show: the signed-in user's info first, then the public config, then defaults. */
export function useBranding(): Branding {
  const config = usePublicConfig();
  const { userInfo } = useSession();
  return {
    systemTitle: userInfo?.systemTitle || config?.systemTitle || 'Geosentry',
    projectTitle: userInfo?.projectTitle || config?.projectTitle || '',
    logo: userInfo?.systemIcon || config?.systemIcon || '/logo.svg',
    copyright: config?.copyright ?? '',
    supportPhone: config?.supportPhone ?? '',
  };
}

import { vibrationRoutes, type VibrationReportQuery } from '@geosentry/contract';
import { call } from '../../shared/api.ts';

export type VibrationParams = Omit<VibrationReportQuery, 'format'>;

export const vibrationKeys = { report: (p: VibrationParams) => ['vibration', 'report', p] as const };

export const fetchVibrationReport = (p: VibrationParams) =>
  call(vibrationRoutes.getVibrationReport, { ...p }, { keepEarlier: true });

import { MarkAreaComponent, MarkLineComponent, MarkPointComponent } from 'echarts/components';
import type { Installer } from '../parts.ts';

export const part: Installer = [MarkLineComponent, MarkAreaComponent, MarkPointComponent];

import { DataZoomInsideComponent, DataZoomSliderComponent } from 'echarts/components';
import type { Installer } from '../parts.ts';

export const part: Installer = [DataZoomInsideComponent, DataZoomSliderComponent];

import * as echarts from 'echarts/core';
import { BarChart, GaugeChart, LineChart, PieChart, ScatterChart } from 'echarts/charts';
import {
  DataZoomInsideComponent,
  DataZoomSliderComponent,
  DatasetComponent,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  MarkPointComponent,
  TitleComponent,
  TooltipComponent,
} from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

/**
 * The console's ECharts 6, tree-shaken (line, bar, scatter, pie and gauge series; grid, tooltip, legend, title,
 * dataset, data zoom, mark line/area/point; canvas). About 175 KiB compressed: EChart.tsx loads this module when
 * its first chart mounts, so a screen whose charts sit in a drawer or a tab does not download it up front. A chart
 * type not registered here must be added to `echarts.use` below (and its option type to EChartOption).
 */
echarts.use([
  LineChart,
  BarChart,
  ScatterChart,
  PieChart,
  GaugeChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  TitleComponent,
  DatasetComponent,
  DataZoomInsideComponent,
  DataZoomSliderComponent,
  MarkLineComponent,
  MarkAreaComponent,
  MarkPointComponent,
  CanvasRenderer,
]);

export { echarts };

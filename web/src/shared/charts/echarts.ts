import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

/**
 * The console's ECharts 6 core (the chart engine and the canvas renderer). Series types and components are parts
 * (parts.ts), each loaded when the first chart whose option uses it mounts: a report of bars and pies does not
 * download data zoom, marks or line series. EChart.tsx loads this module with the first chart.
 */
echarts.use([CanvasRenderer]);

export { echarts };

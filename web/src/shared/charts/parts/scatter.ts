export { ScatterChart as part } from 'echarts/charts';

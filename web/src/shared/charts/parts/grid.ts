export { GridComponent as part } from 'echarts/components';

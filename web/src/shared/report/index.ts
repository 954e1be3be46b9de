/** The shared report view: draws a ReportDocument on screen, and the download bar of its files. */
export { ReportView, REPORT_TABLE_PAGE, reportImageUrl, type ReportViewProps } from './ReportView.tsx';
export { ReportDownloads, type ReportDownloadsProps } from './ReportDownloads.tsx';
export { downloadFile } from './download.ts';
export { dispositionName } from './disposition.ts';
export { cellText, columnTitle } from './cells.ts';
export { reportChartOption } from './reportChart.ts';

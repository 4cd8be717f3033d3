// The report formats and the file each is written to in an --out folder (no renderer loaded here:
// commands check a --format without paying for the renderers' libraries).

export const REPORT_FORMATS = ['junit', 'sarif', 'markdown', 'html', 'badge', 'shields', 'must-badge', 'must-shields', 'tap', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The file name a format is written to inside an --out folder (one report). */
export const FILE_NAME: Record<ReportFormat, string> = {
  junit: 'junit.xml',
  sarif: 'report.sarif',
  markdown: 'report.md',
  html: 'report.html',
  badge: 'badge.svg',
  shields: 'shields.json',
  'must-badge': 'must-badge.svg',
  'must-shields': 'must-shields.json',
  tap: 'report.tap',
  json: 'report.json',
};

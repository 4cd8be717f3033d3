// One report in any single-report format, and the file name each format is written to.

import { renderBadge, renderMustBadge, renderMustShields, renderShields } from './badge.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { Report } from './report.js';
import { renderSarif } from './sarif.js';
import { renderTap } from './tap.js';
import type { ReportFormat } from './formats.js';

export { FILE_NAME, REPORT_FORMATS, type ReportFormat } from './formats.js';

/** Render one report in a single-report format. */
export function renderReport(report: Report, format: ReportFormat): string {
  switch (format) {
    case 'junit':
      return renderJunit(report);
    case 'sarif':
      return renderSarif(report);
    case 'markdown':
      return renderMarkdown(report);
    case 'html':
      return renderHtml(report);
    case 'badge':
      return renderBadge(report);
    case 'shields':
      return renderShields(report);
    case 'must-badge':
      return renderMustBadge(report);
    case 'must-shields':
      return renderMustShields(report);
    case 'tap':
      return renderTap(report);
    case 'json':
      return JSON.stringify(report, null, 2);
  }
}


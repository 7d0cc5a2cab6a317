// The shell of every page the host makes for print (the report after a round, the pairings list,
// the table cards): its title, its CSS inline, and a Content-Security-Policy that allows nothing
// else — no script, no request — so a name in the page can never run or fetch anything.
import { escapeXml as e } from '../../../rules/time-chart.ts';

/** A whole HTML page for print: `header` and `body` are HTML already escaped, `title` is text. */
export function printPage(title: string, css: string, header: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${e(title)}</title>
<style>${css}</style>
</head>
<body>
${header}
${body}
</body>
</html>
`;
}

import { SETTINGS, type Setting } from '../settings.js';

/**
 * docs/configuration.md, printed from the settings' declarations (settings.ts): one table per group,
 * in the order the groups first appear. test/configuration.test.ts holds the committed file to it.
 */
export function configurationDocument(): string {
  const groups = new Map<string, [string, Setting][]>();
  for (const [name, setting] of Object.entries(SETTINGS) as [string, Setting][]) {
    groups.set(setting.group, [...(groups.get(setting.group) ?? []), [name, setting]]);
  }
  const lines = [
    '# Configuration',
    '',
    '<!-- Printed from src/settings.ts by `npm run print:configuration`; edit the declarations, not this file. -->',
    '',
    'The server reads only environment variables, once at start. A bad value stops the start with a message',
    'naming the variable; a value that does not fit another (a lock timeout above the statement timeout, say)',
    'stops it too. Unset and empty mean the default.',
  ];
  for (const [group, settings] of groups) {
    lines.push('', `## ${group}`, '', '| Variable | Default | Accepts | Meaning |', '|---|---|---|---|');
    for (const [name, setting] of settings) lines.push(`| \`${name}\` | ${defaultOf(setting)} | ${acceptsOf(setting)} | ${cell(setting.meaning)} |`);
  }
  return `${lines.join('\n')}\n`;
}

function defaultOf(setting: Setting): string {
  if (typeof setting.default === 'object') return cell(setting.default.rule);
  return `\`${String(setting.default)}\``;
}

function acceptsOf(setting: Setting): string {
  switch (setting.kind) {
    case 'integer':
      return `${setting.min} to ${setting.max}`;
    case 'choice':
      return setting.values.map((value) => `\`${value}\``).join(', ');
    case 'flag':
      return '`true`, `false`';
    case 'text':
      return cell(setting.accepts);
  }
}

/** A table cell: a `|` would end it. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SETTING_CASES } from '../fixtures/widget-settings';
import { freshBuild } from '../helpers/build';
import { requirePhp } from '../helpers/php';

const STUBS = fileURLToPath(new URL('./wordpress/stubs.php', import.meta.url));

describe('WordPress settings refuse what the widget refuses (the contract WIDGET_RULES)', () => {
  it('keeps every valid setting of the shared table and drops every invalid one', () => {
    requirePhp();
    const plugin = freshBuild('dist/wordpress/askbox/askbox.php');
    const code = `require ${JSON.stringify(STUBS)};
      require ${JSON.stringify(plugin)};
      do_action('admin_menu');
      do_action('admin_init');
      $sanitize = $GLOBALS['wp']['settings']['askbox_settings']['sanitize_callback'];
      $kept = [];
      foreach (json_decode(getenv('CASES'), true) as $case) {
        $saved = $sanitize(['bot_id' => 'askboxDemo01', $case['field'] => $case['value']]);
        $kept[] = $saved[$case['field']] === $case['value'];
      }
      echo json_encode($kept);`;
    const run = spawnSync('php', ['-d', 'display_errors=stderr', '-r', code], {
      encoding: 'utf8',
      env: { ...process.env, CASES: JSON.stringify(SETTING_CASES) },
    });
    expect(run.stderr).toBe('');
    const kept = JSON.parse(run.stdout) as boolean[];
    expect(SETTING_CASES.map((c, i) => `${c.field} ${c.value.slice(0, 12)}: ${kept[i]}`)).toEqual(
      SETTING_CASES.map((c) => `${c.field} ${c.value.slice(0, 12)}: ${c.ok}`),
    );
  });
});

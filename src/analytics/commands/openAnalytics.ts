// Open Visitor Analytics: this window's one panel, revealed or opened, on a docs page's row or its
// trend when a link names one.
import { parseOpenTarget } from '../pageFocus';
import type { AnalyticsCommandPorts } from './analyticsCommandPorts';

/**
 * The command. With `{ path, preset? }` (a docs page's link) the panel shows that page's row for that range;
 * with `trend: true` too (Show Trend), its trend. Resolves once shown (and drawn, for Show Trend).
 */
export function openAnalyticsCommand({ log, panel: current, createPanel }: AnalyticsCommandPorts) {
  return async (target?: unknown): Promise<void> => {
    const page = target === undefined ? undefined : parseOpenTarget(target);
    if (target !== undefined && !page) log.warn('Open Visitor Analytics: ignored an argument that is not { path, preset }');
    let panel = current();
    if (panel) panel.reveal();
    else panel = createPanel();
    if (page?.trend) await panel.showTrend(page.path, page.preset);
    else if (page) panel.focus(page.path, page.preset);
  };
}

// Export Visitors…: the open panel's range, or a preset picked now, handed to the exporter (export.ts).
import * as vscode from 'vscode';
import { showNotice } from '../../reportFailure';
import { PRESETS, type ExportStatus, type PresetId } from '../../shared/protocol';
import { localToday } from '../../util/days';
import { daysLabel, presetLabels, resolvePreset } from '../dateRange';
import type { AnalyticsCommandPorts } from './analyticsCommandPorts';

/** The command. Resolves with the outcome, for tests. */
export function exportVisitorsCommand({ settings, ui, log, exporter, panel }: AnalyticsCommandPorts) {
  return async (): Promise<ExportStatus | undefined> => {
    const projectId = settings.projectId;
    if (!projectId) {
      showNotice({ ui, log }, 'warning', vscode.l10n.t('Set the Mintlify project ID before exporting visitors.'), 'setProjectId');
      return undefined;
    }
    let request = panel()?.exportRequest('csv');
    if (!request) {
      const today = localToday();
      const labels = presetLabels(vscode.l10n);
      const items = PRESETS.map((id: PresetId) => {
        const { from, to } = resolvePreset(id, today, vscode.l10n);
        return { id, label: labels[id], description: from && to ? daysLabel(from, to, vscode.l10n) : undefined };
      });
      const picked = await ui.showQuickPick(items, { title: vscode.l10n.t('Export Visitors'), placeHolder: vscode.l10n.t('Which days to export') });
      if (!picked) return undefined;
      request = { projectId, range: resolvePreset(picked.id, today, vscode.l10n), format: 'csv', metric: 'visitors' };
    }
    return exporter.run(request);
  };
}

import type { RoundProgress } from '../app/rounds/control.ts';

const usd = (n: number) => `$${n.toFixed(n < 1 ? 4 : 2)}`;

export function formatEta(seconds: number | null): string {
  if (seconds === null) return '–';
  if (seconds < 90) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

/** One line: a bar of tasks done, then accepted / rejected, spend against budget, rate and ETA. */
export function progressLine(p: RoundProgress, width = 28): string {
  const frac = p.tasksPlanned > 0 ? Math.min(1, p.tasksDone / p.tasksPlanned) : 0;
  const filled = Math.round(frac * width);
  const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
  const budget = p.budgetUsd === null ? '' : ` / ${usd(p.budgetUsd)}`;
  return (
    `${bar} ${p.tasksDone}/${p.tasksPlanned} tasks · ✓ ${p.accepted} ✗ ${p.rejected}` +
    `${p.failed ? ` ! ${p.failed}` : ''} · ${usd(p.spendUsd)}${budget} · ${p.tasksPerSecond}/s · ETA ${formatEta(p.etaSeconds)} · ${p.status}`
  );
}

export function summaryLines(p: RoundProgress): string[] {
  const lines = [progressLine(p)];
  const reasons = Object.entries(p.rejectedByReason).sort((a, b) => b[1] - a[1]);
  if (reasons.length > 0)
    lines.push(`rejected by reason: ${reasons.map(([r, n]) => `${r} ${n}`).join(', ')}`);
  // Older rounds' progress has no failure breakdown.
  const failed = Object.entries(p.failedByReason ?? {}).sort((a, b) => b[1] - a[1]);
  if (p.failed > 0)
    lines.push(
      `failed: ${p.failed} (${failed.map(([r, n]) => `${r} ${n}`).join(', ') || 'no reason recorded'})`,
    );
  if ((p.notStarted ?? 0) > 0 && p.status !== 'running')
    lines.push(`never started: ${p.notStarted} planned tasks`);
  if (p.pauseReason) lines.push(`paused: ${p.pauseReason}`);
  if (p.status === 'completed_with_failures')
    lines.push('re-run the failed and unstarted tasks with their seeds: forge round retry-failed <round>');
  return lines;
}

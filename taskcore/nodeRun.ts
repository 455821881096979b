/** One node of a task's stages as the ledger records it (task_node_runs). */
export interface NodeRun {
  nodeId: string;
  kind: string;
  status: 'ok' | 'failed' | 'rejected';
  durationMs: number;
  outputKey?: string;
  detail?: string;
}

// The worker bundles this file: every workflow type the product registers.

export { exportPackWorkflow } from './exportPack.ts';
export { generationRound } from './round.ts';
export { skillWorkflow } from './skill.ts';
export { taxonomyExpansion } from './taxonomyExpansion.ts';

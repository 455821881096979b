/** What a generated picture may show; the doc schema and the painter (scene.ts) both read these. */

export const SCENES = ['landscape', 'logo', 'scan', 'screenshot', 'product'] as const;
export type SceneKind = (typeof SCENES)[number];

/**
 * What stands in a landscape photo, so it shows what it is named for: a shed, a house with its roof,
 * a boat on the water, a tent, a market stall or a bandstand (none: hills, a lake and trees only).
 */
export const FEATURES = ['shed', 'house', 'boat', 'tent', 'stall', 'bandstand'] as const;
export type FeatureKind = (typeof FEATURES)[number];

/**
 * What a screenshot's window shows: cards (a generic app), a sales dashboard (figures, a bar chart
 * and a line chart), a rota planner (a week's grid of shifts) or a ticket queue (numbered rows with
 * their state). Every one keeps the title bar and the sidebar where the cards have them.
 */
export const SCREENS = ['cards', 'dashboard', 'rota', 'queue'] as const;
export type ScreenKind = (typeof SCREENS)[number];

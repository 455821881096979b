export function formatUsd(value: number | null | undefined): string;
export function formatInt(value: number | null | undefined): string;
export function formatPercent(value: number | null | undefined): string;

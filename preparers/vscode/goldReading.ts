import type { GoldReading } from '../osworld.ts';

/** compare_text_file reads both files whole in text mode: universal newlines, nothing else forgiven. */
export const vscodeGoldReadings: Record<string, GoldReading> = {
  compare_text_file: async (bytes) => new TextDecoder().decode(bytes).replace(/\r\n?/g, '\n'),
};

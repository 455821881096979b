import type { Mapped, OsworldMapper } from '../../preparers/osworld.ts';
import { preparers } from '../../preparers/registry.ts';
import { APPS } from '../../preparers/types.ts';
import type { RubricCheck } from '../../taskpack/taskPackage.ts';
import { baseName } from './vm.ts';

export type {
  Getter,
  GoldComparison,
  Mapped,
  MetricCall,
  TableRule,
} from '../../preparers/osworld.ts';

/**
 * Every app's mapping from check kinds to OSWorld metrics, as its preparer declares it
 * (`Preparer.osworld`; see preparers/osworld.ts for what counts as faithful). The exporter itself
 * knows no app.
 */
export const CHECK_MAPPINGS: Record<string, OsworldMapper> = Object.assign(
  {},
  ...APPS.map((app) => preparers[app].osworld),
);

/** Maps one check, or says why no OSWorld metric tests it faithfully (the portable checker grades it then). */
export function mapCheck(check: RubricCheck): Mapped {
  const mapper = CHECK_MAPPINGS[check.kind];
  if (!mapper) return { ok: false, reason: `no OSWorld metric is known to test "${check.kind}" faithfully` };
  try {
    return mapper(check);
  } catch (err) {
    return {
      ok: false,
      reason: `check fields not understood: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}

export { baseName };

import { z } from 'zod';
import { fixedScript, type MetricCall, type OsworldMapper, unmapped, vmAbsolute } from '../osworld.ts';

const pinned = z.object({ path: z.string(), sha256: z.string() });

/**
 * OSWorld's GIMP metrics (desktop_env/evaluators/metrics/gimp.py) judge by PIL and SSIM at full
 * resolution with their own thresholds; none passes exactly when our grid, header and statistic
 * probes do, so those kinds are graded by the checker and the reasons say where they part. The
 * byte pin maps exactly to a hash compared with exact_match.
 */
export const gimpOsworld: Record<string, OsworldMapper> = {
  'gimp.unchanged': (check) => {
    const c = pinned.parse(check);
    const call: MetricCall = {
      func: 'exact_match',
      result: {
        type: 'vm_command_line',
        command: fixedScript('sha256', vmAbsolute(c.path)),
        shell: false,
      },
      expected: { type: 'rule', rules: { expected: c.sha256 } },
    };
    return { ok: true, shape: 'call', call };
  },
  'gimp.image': () =>
    unmapped(
      'check_image_size opens any format PIL reads (a GIF or BMP under a .png name passes it) and reads no format, alpha, grey mode or JPEG quality; the checker reads the PNG/JPEG headers',
    ),
  'gimp.matches': () =>
    unmapped(
      'check_structure_sim / check_image_mirror compare full-resolution SSIM (≥ 0.9 / ≥ 0.99) of equal-size images; this check compares a 16×16 grid of any size after crop/rotate/flip/grey, so verdicts differ near either threshold',
    ),
  'gimp.measure': () =>
    unmapped(
      'check_brightness_decrease_and_structure_sim / check_saturation_increase_and_structure_sim add their own MSE/SSIM structure tests and compare PIL L/HSV means with no margin; this check is the statistic alone, with a margin',
    ),
  'gimp.region': () =>
    unmapped(
      'no OSWorld GIMP metric tests the colour of a rectangle (check_green_background compares against a mask image)',
    ),
  'gimp.text': () =>
    unmapped(
      'no OSWorld GIMP metric looks for added lettering; check_structure_sim against one rendering fails the same words in another font or place, while this check reads new marks of a colour in a box, any font',
    ),
};

import { z } from 'zod';
import { type MetricCall, type OsworldMapper, unmapped, vmAbsolute } from '../osworld.ts';

const fileOnly = z.object({ file: z.string() });
const fileSha = z.object({ file: z.string(), sha256: z.string() });

/** Prints the file's sha256 (nothing when it is missing or not a file: the traceback goes to stderr). */
const PRINT_SHA256 =
  "import sys,hashlib;sys.stdout.write(hashlib.sha256(open(sys.argv[1],'rb').read()).hexdigest())";

const VLCRC_METRICS =
  "OSWorld's vlcrc metrics (check_qt_max_volume, check_qt_minimal_view, check_qt_bgcone, check_one_instance_when_started_from_file, is_vlc_recordings_folder) find a substring anywhere in a line, commented lines included, and keep the last (or first) match; VLC reads only uncommented name=value lines and ignores a value that is no valid integer, so a file with #qt-max-volume=125 after qt-max-volume=200, or qt-max-volume=abc, grades differently; the checker reads it as VLC does";

/**
 * VLC checks → OSWorld metrics. Only the plain file facts have a metric that grades exactly like our
 * probe (exact_match over a command's output); everything else is graded by the portable checker.
 * Media checks there call ffprobe/ffmpeg: without them in the VM such a check fails naming the
 * missing tool (a pack for a VM without ffmpeg is not gradable, and says so, rather than guessing).
 */
export const vlcOsworld: Record<string, OsworldMapper> = {
  'vlc.pref': () => unmapped(VLCRC_METRICS),
  'vlc.hotkey': () =>
    unmapped(
      'check_global_key_play_pause only tells whether some global play/pause key is set (and reads commented lines too); the check names the binding',
    ),
  'vlc.playlist': () => unmapped('no OSWorld metric reads an XSPF or M3U playlist'),
  'vlc.media': () =>
    unmapped(
      'compare_videos and compare_audios score a file against a gold copy by perceptual hashes or MFCC distance; the check reads container, streams, codecs, duration and colour with ffprobe/ffmpeg in the VM',
    ),
  'vlc.image': () =>
    unmapped('compare_images returns an SSIM score against a gold image, not a size and colour verdict'),
  'vlc.unchanged': () => unmapped('no OSWorld metric pins a set of files, options and folder listings'),
  'vlc.file': (check) => {
    const c = fileSha.parse(check);
    const call: MetricCall = {
      func: 'exact_match',
      result: {
        type: 'vm_command_line',
        command: ['python3', '-c', PRINT_SHA256, vmAbsolute(c.file)],
        shell: false,
      },
      expected: { type: 'rule', rules: { expected: c.sha256 } },
    };
    return { ok: true, shape: 'call', call };
  },
  'vlc.absent': (check) => {
    const c = fileOnly.parse(check);
    const call: MetricCall = {
      func: 'exact_match',
      result: {
        type: 'vm_command_line',
        command: ['find', vmAbsolute(c.file), '-maxdepth', '0', '-printf', 'present'],
        shell: false,
      },
      expected: { type: 'rule', rules: { expected: '' } },
    };
    return { ok: true, shape: 'call', call };
  },
};

/**
 * One local render's whole filtergraph from a plan: the segment's picture (text, image, or an
 * extension's new seconds), the option layers over it (./layers.ts), the flash and caption, the
 * soundtrack, for an extension the earlier video joined in front, and the split into [vout]
 * [aout] [poster].
 *
 * An extension's new seconds are the text-mode picture of its prompt, going on from the earlier
 * clip's length (so extending a local clip with its own prompt and seed continues its motion), and
 * grow out of that clip's last frame, which fades out over the first EXTEND_FADE_SECONDS while the
 * new caption fades in.
 */
import { audioGraph } from './audio-graph.ts';
import { chain, filter } from './filtergraph.ts';
import type { Frame } from './frame.ts';
import { endFrameLayer, fadingStill, referenceStrip } from './layers.ts';
import { FPS, POSTER_FRAME, SAMPLE_RATE, type Scene } from './scene.ts';
import {
  finishSegment,
  imageModePicture,
  textModePicture,
  videoOutputs,
  type CaptionFiles,
} from './video-graph.ts';

/** The earlier video an extension continues: its input labels and how many frames of it to keep. */
interface SourceInputs {
  /** Its video and audio stream (`audio` null: it has none, and plays over silence). */
  video: string;
  audio: string | null;
  /** Its last second, decoded separately (an input opened with -sseof): the still to continue. */
  tail: string;
  frames: number;
}

export type Picture =
  { mode: 'text' } | { mode: 'image'; input: string } | { mode: 'extend'; source: SourceInputs };

export interface GraphPlan {
  scene: Scene;
  frame: Frame;
  /** The rendered segment's length: the whole clip, or the new seconds of an extension. */
  seconds: number;
  picture: Picture;
  /** The input label of the image the clip ends on. */
  endFrame?: string;
  /** The input labels of the reference images. */
  references?: string[];
  captions: CaptionFiles;
}

/** How long an extension's start cross-fades from the earlier clip's last frame. */
const EXTEND_FADE_SECONDS = 0.5;

/** The audio every part is joined in: 48 kHz stereo float, as the AAC encoder takes it. */
const AUDIO_FORMAT = filter('aformat', {
  sample_fmts: 'fltp',
  sample_rates: SAMPLE_RATE,
  channel_layouts: 'stereo',
});

/** The earlier video fitted to the frame at FPS, exactly `frames` long, and its audio as long. */
function sourceChains(source: SourceInputs, frame: Frame): string[] {
  const { width, height } = frame;
  const samples = (source.frames / FPS) * SAMPLE_RATE;
  const audio = source.audio
    ? chain(
        [source.audio],
        [
          'asetpts=PTS-STARTPTS',
          filter('aresample', { osr: SAMPLE_RATE }),
          AUDIO_FORMAT,
          'apad',
          filter('atrim', { end_sample: samples }),
        ],
        ['srca'],
      )
    : chain(
        [],
        [
          filter('anullsrc', { r: SAMPLE_RATE, cl: 'stereo' }),
          filter('atrim', { end_sample: samples }),
          AUDIO_FORMAT,
        ],
        ['srca'],
      );
  return [
    chain(
      [source.video],
      [
        'setpts=PTS-STARTPTS',
        filter('scale', { w: width, h: height, force_original_aspect_ratio: 'decrease' }),
        filter('scale', { w: 'trunc(iw/2)*2', h: 'trunc(ih/2)*2' }),
        filter('pad', { w: width, h: height, x: '(ow-iw)/2', y: '(oh-ih)/2' }),
        'setsar=1',
        filter('fps', { fps: FPS }),
        'format=yuv420p',
        // A stream a frame short of its container's length is held on its last frame.
        filter('tpad', { stop_mode: 'clone', stop_duration: 2 }),
        filter('trim', { end_frame: source.frames }),
      ],
      ['srcv'],
    ),
    audio,
    // The still the extension starts from: the source's very last frame.
    chain([source.tail], ['reverse'], ['still']),
  ];
}

/** The filter_complex text of a render; its outputs are [vout], [aout] and [poster]. */
export function renderGraph(plan: GraphPlan): string {
  const { scene, frame, seconds, picture } = plan;
  const parts: string[] = [];
  let last = 'pic';
  if (picture.mode === 'text') parts.push(...textModePicture(scene, frame, seconds, 'pic'));
  else if (picture.mode === 'image') {
    parts.push(...imageModePicture(scene, frame, seconds, picture.input, 'pic'));
  } else {
    const lead = picture.source.frames / FPS;
    parts.push(
      ...sourceChains(picture.source, frame),
      ...textModePicture(scene, frame, seconds, 'new', lead),
      ...fadingStill('still', frame, EXTEND_FADE_SECONDS, 'new', 'pic'),
    );
  }
  if (plan.endFrame) {
    parts.push(...endFrameLayer(plan.endFrame, frame, seconds, last, 'ended'));
    last = 'ended';
  }
  if (plan.references?.length) {
    parts.push(...referenceStrip(plan.references, frame, last, 'refs'));
    last = 'refs';
  }
  const flash = picture.mode === 'image' ? 'image' : 'text';
  const fade = picture.mode === 'extend' ? EXTEND_FADE_SECONDS : 0;
  parts.push(finishSegment(last, flash, plan.captions, frame, 'seg', fade));
  if (picture.mode !== 'extend') {
    parts.push(audioGraph(scene, seconds, 'aout'), ...videoOutputs('seg', POSTER_FRAME));
    return parts.join(';');
  }
  // An extension: the earlier video, then the new seconds, as one stream of each kind.
  parts.push(
    audioGraph(scene, seconds, 'segaudio', picture.source.frames / FPS),
    chain(['segaudio'], [AUDIO_FORMAT], ['sega']),
    chain(
      ['srcv', 'srca', 'seg', 'sega'],
      [filter('concat', { n: 2, v: 1, a: 1 })],
      ['joined', 'aout'],
    ),
    // The poster comes from the new part, at the same point of its beat as an 8 s clip's.
    ...videoOutputs('joined', picture.source.frames + POSTER_FRAME),
  );
  return parts.join(';');
}

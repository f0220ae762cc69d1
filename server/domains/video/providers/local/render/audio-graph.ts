/** The soundtrack of a local render as an ffmpeg filtergraph, built from a Scene (./scene.ts). */
import { chain, filter, num } from './filtergraph.ts';
import { BEAT_SECONDS, DURATION_SECONDS, SAMPLE_RATE, type Scene } from './scene.ts';

/**
 * The soundtrack as one aevalsrc expression (mono, duplicated to stereo). With τ the time since the
 * last beat (0..0.5 s):
 * a kick whose pitch falls from kickStartHz to kickEndHz, a plucked note cycling through four
 * pentatonic notes per bar, both struck at τ = 0 (every beat), over a quiet two-note pad.
 * `seconds` long (the spec's 8 s by default), output [`out`]; `startSeconds`: the pad goes on from
 * that moment (an extension).
 */
export function audioGraph(
  scene: Scene,
  seconds = DURATION_SECONDS,
  out = 'aout',
  startSeconds = 0,
): string {
  const t = startSeconds ? `(t+${num(startSeconds)})` : 't';
  const tau = 'ld(0)';
  const [f0, f1] = [scene.kickStartHz, scene.kickEndHz];
  const k = scene.kickDrop;
  const kick = `0.55*sin(2*PI*(${num(f1)}*${tau}+${num((f0 - f1) / k)}*(1-exp(-${num(k)}*${tau}))))*exp(-9*${tau})`;
  const [n0, n1, n2, n3] = scene.notesHz.map((hz) => num(hz, 3));
  const note = `if(eq(ld(1),0),${n0},if(eq(ld(1),1),${n1},if(eq(ld(1),2),${n2},${n3})))`;
  const pluck = `0.2*sin(2*PI*${note}*${tau})*exp(-7*${tau})`;
  const pad = `0.05*(sin(2*PI*${num(scene.padHz, 3)}*${t})+0.7*sin(2*PI*${num(scene.padHz * 1.5, 3)}*${t}))*(0.8+0.2*sin(PI*${t}/2))`;
  // From the integer sample index n, not t, so beat onsets land on exact samples.
  const beatSamples = SAMPLE_RATE * BEAT_SECONDS;
  const expr =
    `st(0,mod(n,${beatSamples})/${SAMPLE_RATE});` +
    `st(1,mod(floor(n/${beatSamples}),4));` +
    `${kick}+${pluck}+${pad}`;
  return chain(
    [],
    [
      filter('aevalsrc', { exprs: expr, c: 'mono', s: SAMPLE_RATE, d: seconds }),
      filter('pan', { args: 'stereo|c0=c0|c1=c0' }),
    ],
    [out],
  );
}

/**
 * The picture size of a render and how the 1280×720 design (./scene.ts) fits it: sizes and type
 * scale with the short side (720p → 1, 1080p → 1.5), positions and orbits with each side, so a
 * 9:16 or 1080p clip has the same look as the spec's 16:9 720p one, not a stretched copy.
 */
import { HEIGHT, WIDTH } from './scene.ts';

/** A render's picture size: shared/video-options.ts frameSize (9:16 at 1080p is 1080×1920). */
export interface Frame {
  width: number;
  height: number;
}

export const isPortrait = (frame: Frame) => frame.height > frame.width;

/** How many design pixels one frame pixel of size (type, shapes, margins) is: short side ÷ 720. */
export const unitOf = (frame: Frame) => Math.min(frame.width, frame.height) / HEIGHT;

/** Horizontal and vertical stretch of the design's positions (orbits, pans) onto the frame. */
export const stretchOf = (frame: Frame) => ({
  x: frame.width / WIDTH,
  y: frame.height / HEIGHT,
});

/** An even number of pixels (yuv420p needs even sizes), at least 2. */
export const even = (pixels: number) => Math.max(2, 2 * Math.round(pixels / 2));

import { h, type VNode } from './vnode';

// A small glyph per agent, so rows from two agents tell themselves apart at a
// glance. Drawn in the text colour (currentColor), so every theme's contrast
// holds; the agent's name always stands beside it or in the row's label.

const GLYPHS: Record<string, { d: string; filled: boolean }> = {
  // A starburst.
  claude: { d: 'M8 1.5v13M1.5 8h13M3.4 3.4l9.2 9.2M12.6 3.4l-9.2 9.2', filled: false },
  // A hexagon.
  codex: { d: 'M8 1.5l5.6 3.25v6.5L8 14.5l-5.6-3.25v-6.5z', filled: false },
  // A four-pointed sparkle.
  gemini: { d: 'M8 1c.6 4.4 2.6 6.4 7 7-4.4.6-6.4 2.6-7 7-.6-4.4-2.6-6.4-7-7 4.4-.6 6.4-2.6 7-7z', filled: true },
  // A pointer.
  cursor: { d: 'M3.5 1.5l9.5 6.2-4.4 1.1-2.2 4.7z', filled: true },
  // Goggles.
  copilot: { d: 'M1.5 8a3 3 0 1 0 6 0a3 3 0 1 0-6 0M8.5 8a3 3 0 1 0 6 0a3 3 0 1 0-6 0', filled: false },
};

const UNKNOWN = { d: 'M8 2.5a5.5 5.5 0 1 0 0 11a5.5 5.5 0 1 0 0-11z', filled: false };

/** The agent's glyph, decorative: its name is given in text wherever it is shown. */
export function agentIcon(agent: string): VNode {
  const glyph = Object.hasOwn(GLYPHS, agent) ? GLYPHS[agent]! : UNKNOWN;
  return h(
    'svg',
    {
      class: `agent-icon agent-${Object.hasOwn(GLYPHS, agent) ? agent : 'other'}`,
      viewBox: '0 0 16 16',
      width: '12',
      height: '12',
      'aria-hidden': 'true',
      focusable: 'false',
    },
    h('path', {
      d: glyph.d,
      fill: glyph.filled ? 'currentColor' : 'none',
      stroke: glyph.filled ? 'none' : 'currentColor',
      'stroke-width': '1.6',
      'stroke-linejoin': 'round',
    }),
  );
}

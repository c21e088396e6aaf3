import { displayUsd } from '../shell';
import { OTHER_COLOUR, SERIES_COLOURS } from './styles';
import { chartBars, OTHER, type UsageSeries } from './usage';

/** In user units; the right margin leaves room for the last day's label. */
const BOX = { width: 720, height: 230, left: 124, right: 24, bottom: 32, top: 14 };

const colour = (model: string, series: number) => (model === OTHER ? OTHER_COLOUR : (SERIES_COLOURS[series % SERIES_COLOURS.length] ?? OTHER_COLOUR));

/** What a chart is of: its element id, its title, and what its series are (the legend's name and the table's column). */
export interface ChartNames {
  id: string;
  title: string;
  series: string;
}

const BY_MODEL: ChartNames = { id: 'usage-chart', title: 'Spend per day by model, last 30 days (UTC)', series: 'Model' };

/**
 * Spend per day by model (or, for an organization, by member) over the last 30 days, as stacked bars in inline SVG drawn here (no
 * script). For assistive technology: the SVG is an image with a title and a description that
 * states the totals, each bar has its own title, and the same numbers follow as a table.
 */
export function UsageChart(props: { usage: UsageSeries; chart?: ChartNames }) {
  const { usage } = props;
  const { id, title, series } = props.chart ?? BY_MODEL;
  const plot = { ...BOX, width: BOX.width - BOX.right };
  const { bars, ceiling } = chartBars(usage, plot);
  const first = usage.days[0]!;
  const last = usage.days.at(-1)!;
  const plotBottom = BOX.height - BOX.bottom;
  const gridlines = [0, ceiling / 2, ceiling].map((micros) => ({ micros, y: plotBottom - (micros / ceiling) * (plotBottom - BOX.top) }));
  const slot = (plot.width - BOX.left) / usage.days.length;
  const labelled = [0, 7, 14, 21, usage.days.length - 1];
  const summary =
    usage.totalMicros === 0
      ? `No spend from ${first} to ${last}.`
      : `${displayUsd(usage.totalMicros)} spent from ${first} to ${last}: ` +
        usage.models.map((model, m) => `${model} ${displayUsd(usage.cells.reduce((sum, day) => sum + day[m]!, 0))}`).join(', ') +
        '.';

  return (
    <figure class="chart">
      <svg id={id} viewBox={`0 0 ${BOX.width} ${BOX.height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {gridlines.map((line) => (
          <g>
            <line x1={BOX.left} x2={plot.width} y1={line.y} y2={line.y} stroke="#dadce0" stroke-width="1" />
            <text x={BOX.left - 6} y={line.y + 4} text-anchor="end">
              {displayUsd(Math.round(line.micros))}
            </text>
          </g>
        ))}
        {labelled.map((d) => (
          <text x={BOX.left + d * slot + slot / 2} y={BOX.height - 8} text-anchor={d === usage.days.length - 1 ? 'end' : d === 0 ? 'start' : 'middle'}>
            {usage.days[d]!.slice(5)}
          </text>
        ))}
        {bars.map((bar) => (
          <rect class="bar" data-model={bar.model} data-day={bar.day} x={bar.x} y={bar.y} width={bar.width} height={bar.height} fill={colour(bar.model, bar.series)}>
            <title>{`${bar.day} ${bar.model}: ${displayUsd(bar.micros)}`}</title>
          </rect>
        ))}
      </svg>
      {usage.models.length > 0 ? (
        <ul class="legend" aria-label={`${series}s`}>
          {usage.models.map((model, m) => (
            <li>
              <svg viewBox="0 0 10 10" aria-hidden="true">
                <rect width="10" height="10" fill={colour(model, m)} />
              </svg>
              {model}
            </li>
          ))}
        </ul>
      ) : null}
      <figcaption>{summary}</figcaption>
      {usage.totalMicros > 0 ? <UsageTable usage={usage} series={series} /> : null}
    </figure>
  );
}

/** The chart's numbers: each day and model with spend, newest day first. */
function UsageTable(props: { usage: UsageSeries; series: string }) {
  const { usage } = props;
  const rows = usage.days
    .flatMap((day, d) => usage.models.map((model, m) => ({ day, model, micros: usage.cells[d]![m]! })))
    .filter((row) => row.micros > 0)
    .reverse();
  return (
    <details>
      <summary>Show the numbers as a table</summary>
      <table class="rows">
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            <th scope="col">{props.series}</th>
            <th scope="col" class="num">
              Spend
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr>
              <td data-label="Day">{row.day}</td>
              <td data-label={props.series}>{row.model}</td>
              <td data-label="Spend" class="num">
                {displayUsd(row.micros)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

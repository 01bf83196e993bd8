package dev.cqlpatterns.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/** report.html: inline SVG line charts, no script and no library, so it opens anywhere. */
final class Plot {
    private static final int W = 420;
    private static final int H = 240;
    private static final int M = 46;

    private Plot() {}

    record Series(String label, String color, boolean dashed, List<double[]> points) {}

    static String html(
            List<OpenBench.Result> results, List<Integer> rates, List<Integer> rows, String rss, String load) {
        StringBuilder h =
                new StringBuilder("<!doctype html><meta charset=utf-8><title>cql-patterns open-model bench</title>"
                        + "<style>body{font:14px sans-serif;margin:2em}svg{margin:0 1em 1em 0;border:1px solid #ddd}</style>"
                        + "<h1>cql-patterns: service against driver floor, open model</h1><p>Latency from when each request was due. "
                        + "Solid: service; dashed: the same statements through the driver. " + esc(rss)
                        + "; load average " + esc(load)
                        + ".</p>");
        List<String> routes =
                results.stream().map(OpenBench.Result::route).distinct().toList();
        int smallest = rows.get(0);
        h.append("<h2>Latency against arrival rate (")
                .append(String.format("%,d", smallest))
                .append(" rows)</h2>");
        for (String route : routes) {
            h.append(chart(
                    route,
                    "arrivals per second",
                    percentiles(results, route, r -> r.rows() == smallest, OpenBench.Result::rate)));
        }
        if (rows.size() > 1) {
            h.append("<h2>Latency against rows (").append(rates.get(0)).append(" requests per second)</h2>");
            for (String route : routes) {
                List<Series> series =
                        percentiles(results, route, r -> r.rate() == rates.get(0), OpenBench.Result::rows);
                if (series.get(0).points().size() > 1) {
                    h.append(chart(route, "rows (log scale)", series, true));
                }
            }
        }
        return h.toString();
    }

    /** The p50 and p99 of the service and of the floor, for one route, against x. */
    private static List<Series> percentiles(
            List<OpenBench.Result> results,
            String route,
            Predicate<OpenBench.Result> which,
            ToDoubleFunction<OpenBench.Result> x) {
        List<Series> series = new ArrayList<>();
        for (String target : List.of("service", "floor")) {
            boolean dashed = target.equals("floor");
            series.add(new Series(
                    target + " p50",
                    "#1f77b4",
                    dashed,
                    points(results, route, target, which, x, OpenBench.Result::p50)));
            series.add(new Series(
                    target + " p99",
                    "#d62728",
                    dashed,
                    points(results, route, target, which, x, OpenBench.Result::p99)));
        }
        return series;
    }

    private static List<double[]> points(
            List<OpenBench.Result> results,
            String route,
            String target,
            Predicate<OpenBench.Result> which,
            ToDoubleFunction<OpenBench.Result> x,
            ToDoubleFunction<OpenBench.Result> y) {
        return results.stream()
                .filter(r -> r.route().equals(route) && r.target().equals(target) && which.test(r))
                .map(r -> new double[] {x.applyAsDouble(r), y.applyAsDouble(r)})
                .filter(p -> !Double.isNaN(p[1]))
                .sorted((a, b) -> Double.compare(a[0], b[0]))
                .toList();
    }

    private static String chart(String title, String xLabel, List<Series> series) {
        return chart(title, xLabel, series, false);
    }

    private static String chart(String title, String xLabel, List<Series> series, boolean logX) {
        // Latency on a log scale: the floor's milliseconds and a saturated service's seconds on one chart.
        double x0 = Double.MAX_VALUE, x1 = -Double.MAX_VALUE, y0 = -1, y1 = 0;
        for (Series s : series) {
            for (double[] p : s.points()) {
                double x = logX ? Math.log10(p[0]) : p[0];
                x0 = Math.min(x0, x);
                x1 = Math.max(x1, x);
                y1 = Math.max(y1, Math.ceil(logMs(p[1])));
            }
        }
        if (x0 == Double.MAX_VALUE) {
            return "";
        }
        if (x1 == x0) {
            x1 = x0 + 1;
        }
        y1 = Math.max(y1, y0 + 1);
        StringBuilder svg = new StringBuilder(String.format(
                Locale.ROOT,
                "<svg width=%d height=%d viewBox='0 0 %d %d'><text x=%d y=16 font-weight=bold>%s</text>",
                W,
                H,
                W,
                H,
                M,
                esc(title)));
        svg.append(String.format(
                Locale.ROOT,
                "<line x1=%d y1=%d x2=%d y2=%d stroke=#000 /><line x1=%d y1=%d x2=%d y2=%d stroke=#000 />",
                M,
                H - M,
                W - 10,
                H - M,
                M,
                24,
                M,
                H - M));
        svg.append(String.format(
                Locale.ROOT,
                "<text x=%d y=%d font-size=11>%s</text><text x=2 y=%d font-size=11>ms (log)</text>",
                W / 2 - 40,
                H - 8,
                esc(xLabel),
                30));
        for (double k = y0; k <= y1; k++) {
            double y = (H - M) - (H - M - 24) * (k - y0) / (y1 - y0);
            svg.append(String.format(
                    Locale.ROOT,
                    "<text x=2 y=%.0f font-size=10>%s</text>",
                    y + 3,
                    new java.math.BigDecimal(Math.pow(10, k))
                            .round(new java.math.MathContext(1))
                            .toPlainString()));
        }
        int legend = 0;
        for (Series s : series) {
            StringBuilder path = new StringBuilder();
            for (double[] p : s.points()) {
                double x = logX ? Math.log10(p[0]) : p[0];
                double px = M + (W - 10 - M) * (x - x0) / (x1 - x0);
                double py = (H - M) - (H - M - 24) * (logMs(p[1]) - y0) / (y1 - y0);
                path.append(path.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", px, py));
                svg.append(String.format(Locale.ROOT, "<circle cx=%.1f cy=%.1f r=2.5 fill='%s'/>", px, py, s.color()));
                svg.append(String.format(
                        Locale.ROOT,
                        "<text x=%.1f y=%d font-size=9>%s</text>",
                        px - 8,
                        H - M + 12,
                        String.format(Locale.ROOT, "%,.0f", p[0])));
            }
            svg.append(String.format(
                    Locale.ROOT,
                    "<path d='%s' fill=none stroke='%s' stroke-width=1.5 %s/>",
                    path,
                    s.color(),
                    s.dashed() ? "stroke-dasharray='5 4'" : ""));
            svg.append(String.format(
                    Locale.ROOT,
                    "<text x=%d y=%d font-size=10 fill='%s'>%s%s</text>",
                    W - 130,
                    34 + 12 * legend++,
                    s.color(),
                    s.dashed() ? "- - " : "— ",
                    esc(s.label())));
        }
        return svg.append("</svg>").toString();
    }

    /** log10 of milliseconds, 0.1 ms and below at the bottom of the chart. */
    private static double logMs(double ms) {
        return Math.log10(Math.max(ms, 0.1));
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}

package dev.cqlpatterns.delivery;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small PromQL checker for the dashboard's and the alert rules' expressions (no PromQL parser is
 * on Maven Central for Java): brackets balance and nest, every call is a PromQL function or
 * aggregation, ranges are durations, label matchers are well formed; and which metrics (with the
 * label names matched on each) an expression reads.
 */
final class PromQl {
    static final Set<String> FUNCTIONS = Set.of(
            // aggregations
            "sum",
            "min",
            "max",
            "avg",
            "count",
            "stddev",
            "stdvar",
            "topk",
            "bottomk",
            "quantile",
            "count_values",
            "group",
            // functions
            "abs",
            "absent",
            "absent_over_time",
            "ceil",
            "changes",
            "clamp",
            "clamp_max",
            "clamp_min",
            "day_of_month",
            "day_of_week",
            "days_in_month",
            "delta",
            "deriv",
            "exp",
            "floor",
            "histogram_quantile",
            "holt_winters",
            "hour",
            "idelta",
            "increase",
            "irate",
            "label_join",
            "label_replace",
            "ln",
            "log2",
            "log10",
            "minute",
            "month",
            "predict_linear",
            "rate",
            "resets",
            "round",
            "scalar",
            "sgn",
            "sort",
            "sort_desc",
            "sqrt",
            "time",
            "timestamp",
            "vector",
            "year",
            "avg_over_time",
            "min_over_time",
            "max_over_time",
            "sum_over_time",
            "count_over_time",
            "quantile_over_time",
            "stddev_over_time",
            "stdvar_over_time",
            "last_over_time",
            "present_over_time");
    static final Set<String> KEYWORDS = Set.of(
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "and",
            "or",
            "unless",
            "bool",
            "offset",
            "inf",
            "nan");
    private static final Pattern DURATION = Pattern.compile("(\\d+(ms|s|m|h|d|w|y))+(:(\\d+(ms|s|m|h|d|w|y))+)?");
    private static final Pattern MATCHER =
            Pattern.compile("\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"((?:[^\"\\\\]|\\\\.)*)\"\\s*");
    private static final Pattern IDENT = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    /** Grafana's template variables and interval macros, as the dashboard uses them. */
    private static final Pattern GRAFANA = Pattern.compile("\\$(__rate_interval|__interval|__range)\\b");

    private PromQl() {}

    /** The metrics an expression reads, each with the label names it matches on; fails on bad syntax. */
    static Map<String, Set<String>> check(String expression) {
        String expr = GRAFANA.matcher(expression).replaceAll("5m");
        Map<String, Set<String>> metrics = new LinkedHashMap<>();
        Deque<Character> open = new ArrayDeque<>();
        int i = 0;
        while (i < expr.length()) {
            char c = expr.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '"' || c == '\'') {
                int end = i + 1;
                while (end < expr.length() && expr.charAt(end) != c) {
                    end += expr.charAt(end) == '\\' ? 2 : 1;
                }
                require(end < expr.length(), expression, "unterminated string");
                i = end + 1;
            } else if (c == '(') {
                open.push(c);
                i++;
            } else if (c == '[') {
                int end = expr.indexOf(']', i);
                require(end > 0, expression, "unclosed [");
                String range = expr.substring(i + 1, end).trim();
                require(DURATION.matcher(range).matches(), expression, "not a duration: [" + range + "]");
                i = end + 1;
            } else if (c == ')') {
                require(!open.isEmpty() && open.pop() == '(', expression, "unbalanced )");
                i++;
            } else if (c == '{' || c == '}' || c == ']') {
                throw new AssertionError(expression + ": unexpected " + c);
            } else if (Character.isDigit(c)
                    || (c == '.' && i + 1 < expr.length() && Character.isDigit(expr.charAt(i + 1)))) {
                int end = i;
                while (end < expr.length()
                        && (Character.isLetterOrDigit(expr.charAt(end)) || expr.charAt(end) == '.')) {
                    end++;
                }
                String number = expr.substring(i, end);
                require(
                        number.matches("\\d+(\\.\\d+)?(e[+-]?\\d+)?|\\.\\d+")
                                || DURATION.matcher(number).matches(),
                        expression,
                        "not a number: " + number);
                i = end;
            } else if (Character.isLetter(c) || c == '_' || c == ':') {
                Matcher m = IDENT.matcher(expr);
                m.find(i);
                String word = m.group();
                int end = m.end();
                int next = skipSpaces(expr, end);
                if (KEYWORDS.contains(word.toLowerCase())) {
                    if (Set.of("by", "without", "on", "ignoring", "group_left", "group_right")
                            .contains(word)) {
                        if (next < expr.length() && expr.charAt(next) == '(') {
                            int close = expr.indexOf(')', next);
                            require(close > 0, expression, "unclosed label list");
                            for (String label : expr.substring(next + 1, close).split(",")) {
                                require(
                                        label.isBlank()
                                                || IDENT.matcher(label.trim()).matches(),
                                        expression,
                                        "not a label: " + label);
                            }
                            end = close + 1;
                        }
                    }
                    i = end;
                } else if ((next < expr.length() && expr.charAt(next) == '(') || groupedAggregation(expr, word, next)) {
                    require(FUNCTIONS.contains(word), expression, "not a PromQL function: " + word);
                    i = end;
                } else {
                    Set<String> labels = metrics.computeIfAbsent(word, w -> new LinkedHashSet<>());
                    if (next < expr.length() && expr.charAt(next) == '{') {
                        int close = closingBrace(expr, next, expression);
                        String body = expr.substring(next + 1, close);
                        for (String matcher : splitMatchers(body)) {
                            if (matcher.isBlank()) {
                                continue;
                            }
                            Matcher mm = MATCHER.matcher(matcher);
                            require(mm.matches(), expression, "not a label matcher: " + matcher);
                            labels.add(mm.group(1));
                            if (mm.group(2).contains("~")) {
                                Pattern.compile(mm.group(3).replace("\\\\", "\\"));
                            }
                        }
                        end = close + 1;
                    }
                    i = end;
                }
            } else if ("+-*/%^<>=!,".indexOf(c) >= 0) {
                i++;
            } else {
                throw new AssertionError(expression + ": unexpected character " + c);
            }
        }
        require(open.isEmpty(), expression, "unbalanced (");
        require(!metrics.isEmpty() || expr.contains("time()"), expression, "reads no metric");
        return metrics;
    }

    /** {@code sum by (x) (...)}: an aggregation whose grouping comes before its argument. */
    private static boolean groupedAggregation(String expr, String word, int next) {
        if (!FUNCTIONS.contains(word)) {
            return false;
        }
        Matcher m = IDENT.matcher(expr);
        return m.find(next) && m.start() == next && Set.of("by", "without").contains(m.group());
    }

    private static int skipSpaces(String s, int from) {
        int i = from;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    /** The } closing the { at {@code from}, past quoted strings. */
    static int closingBrace(String expr, int from, String expression) {
        boolean quoted = false;
        for (int i = from + 1; i < expr.length(); i++) {
            char c = expr.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == '}' && !quoted) {
                return i;
            }
        }
        throw new AssertionError(expression + ": unclosed {");
    }

    private static java.util.List<String> splitMatchers(String body) {
        java.util.List<String> parts = new java.util.ArrayList<>();
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                parts.add(body.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(body.substring(start));
        return parts;
    }

    private static void require(boolean condition, String expression, String problem) {
        if (!condition) {
            throw new AssertionError("PromQL " + expression + ": " + problem);
        }
    }
}

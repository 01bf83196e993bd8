package dev.cqlpatterns.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The PromQL of k8s/components/monitoring: the Grafana dashboard's panel queries and the alert rules. */
final class MonitoringSources {
    static final Path DIR = RenderedOverlay.ROOT.resolve("k8s/components/monitoring");
    static final Path DASHBOARD = DIR.resolve("dashboard.json");
    static final Path RULES = DIR.resolve("prometheus-rules.yaml");

    /**
     * Metrics the rules read that the service does not export: kube-state-metrics' CronJob series,
     * for the jobs that run as CronJobs (functions), whose pods live too briefly to be scraped.
     */
    static final Set<String> FROM_KUBE_STATE_METRICS = Set.of("kube_cronjob_status_last_successful_time");

    /** Labels Prometheus adds to every series it scrapes from a pod (the PodMonitor's target labels). */
    static final Set<String> TARGET_LABELS = Set.of("namespace", "pod", "container", "instance", "endpoint");

    private MonitoringSources() {}

    static JsonNode dashboard() {
        try {
            return new ObjectMapper().readTree(DASHBOARD.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode rules() {
        try {
            return new ObjectMapper(new YAMLFactory()).readTree(RULES.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every panel's queries, by panel title. */
    static Map<String, List<String>> panelQueries() {
        Map<String, List<String>> queries = new LinkedHashMap<>();
        collect(dashboard().path("panels"), queries);
        return queries;
    }

    private static void collect(JsonNode panels, Map<String, List<String>> queries) {
        for (JsonNode panel : panels) {
            collect(panel.path("panels"), queries);
            List<String> exprs = new ArrayList<>();
            panel.path("targets").forEach(t -> exprs.add(t.path("expr").asText()));
            if (!exprs.isEmpty()) {
                queries.put(panel.path("title").asText(), exprs);
            }
        }
    }

    /** Every alerting and recording rule's expression, by alert (or record) name. */
    static Map<String, String> ruleExpressions() {
        Map<String, String> exprs = new LinkedHashMap<>();
        for (JsonNode group : rules().path("spec").path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                String name = rule.hasNonNull("alert")
                        ? rule.get("alert").asText()
                        : rule.path("record").asText();
                exprs.put(name, rule.path("expr").asText());
            }
        }
        return exprs;
    }

    /** Every expression of both, labelled with where it is. */
    static Map<String, String> allExpressions() {
        Map<String, String> all = new LinkedHashMap<>();
        panelQueries().forEach((title, exprs) -> {
            for (int i = 0; i < exprs.size(); i++) {
                all.put("panel '" + title + "' #" + i, exprs.get(i));
            }
        });
        ruleExpressions().forEach((name, expr) -> all.put("rule " + name, expr));
        return all;
    }
}

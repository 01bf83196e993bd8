package dev.cqlpatterns.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.platform.buckets.BucketRoller;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.fabric8.knative.serving.v1.RevisionSpec;
import io.fabric8.knative.serving.v1.Service;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The function overlays: one scale-to-zero Knative Service per function group, and the jobs run from outside. */
class FunctionsTest {
    static final String MIN_SCALE = "autoscaling.knative.dev/min-scale";
    static final String MAX_SCALE = "autoscaling.knative.dev/max-scale";
    static final String TARGET = "autoscaling.knative.dev/target";
    static final List<String> FUNCTION_OVERLAYS = List.of("dev", "prod", "prod-jvm");

    @ParameterizedTest
    @FieldSource("FUNCTION_OVERLAYS")
    void should_run_one_function_per_group_from_that_groups_image(String overlay) {
        Map<FunctionGroup, Service> functions = functions(RenderedOverlay.of(overlay));
        assertThat(functions.keySet()).containsExactlyInAnyOrder(FunctionGroup.values());
        functions.forEach((group, function) -> {
            String image = function.getSpec()
                    .getTemplate()
                    .getSpec()
                    .getContainers()
                    .get(0)
                    .getImage();
            assertThat(image).as(group.id()).matches("(.*/)?cql-patterns-" + group.id() + "(-native)?:.+");
            // Reached through the HTTPRoute only: no public host of its own, so /q/* stays inside.
            assertThat(function.getMetadata().getLabels())
                    .containsEntry("networking.knative.dev/visibility", "cluster-local");
        });
    }

    @ParameterizedTest
    @FieldSource("FUNCTION_OVERLAYS")
    void should_scale_each_function_to_zero_and_within_bounds(String overlay) {
        for (Service function : functions(RenderedOverlay.of(overlay)).values()) {
            Map<String, String> annotations =
                    function.getSpec().getTemplate().getMetadata().getAnnotations();
            RevisionSpec revision = function.getSpec().getTemplate().getSpec();
            assertThat(annotations).containsEntry(MIN_SCALE, "0");
            assertThat(Integer.parseInt(annotations.get(MAX_SCALE))).isPositive();
            assertThat(Integer.parseInt(annotations.get(TARGET)))
                    .isPositive()
                    .isLessThanOrEqualTo(revision.getContainerConcurrency().intValue());
        }
    }

    @ParameterizedTest
    @FieldSource("FUNCTION_OVERLAYS")
    void should_never_migrate_or_tick_in_a_function(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        for (Service function : functions(rendered).values()) {
            Map<String, String> env = rendered.environment(
                    function.getSpec().getTemplate().getSpec().getContainers().get(0));
            assertThat(env)
                    .as(function.getMetadata().getName())
                    .containsEntry("SCHEDULER_IN_PROCESS", "false")
                    .containsEntry("CQL_MIGRATE_AT_STARTUP", "false");
        }
    }

    @ParameterizedTest
    @FieldSource("FUNCTION_OVERLAYS")
    void should_size_a_function_small_with_a_container_aware_heap(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        for (Service function : functions(rendered).values()) {
            Container container =
                    function.getSpec().getTemplate().getSpec().getContainers().get(0);
            Quantity memory = container.getResources().getLimits().get("memory");
            assertThat(Quantity.getAmountInBytes(memory))
                    .as(function.getMetadata().getName())
                    .isLessThanOrEqualTo(Quantity.getAmountInBytes(new Quantity("256Mi")));
            assertThat(rendered.environment(container).get("JAVA_TOOL_OPTIONS")).contains("-XX:MaxRAMPercentage=");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = "prod")
    void should_run_the_native_executables_in_production(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        assertThat(rendered.pods())
                .allSatisfy(pod -> assertThat(pod.container().getImage())
                        .as(pod.workload())
                        .matches(".*/cql-patterns(-[a-z]+)?-native:.+"));
        assertThat(functions(rendered).values())
                .allSatisfy(f -> assertThat(Quantity.getAmountInBytes(f.getSpec()
                                .getTemplate()
                                .getSpec()
                                .getContainers()
                                .get(0)
                                .getResources()
                                .getLimits()
                                .get("memory")))
                        .isLessThan(Quantity.getAmountInBytes(new Quantity("256Mi"))));
    }

    /** Where no native image is built: each group's JVM image (bin/function-image) with a JVM's memory. */
    @ParameterizedTest
    @ValueSource(strings = "prod-jvm")
    void should_fall_back_to_each_groups_jvm_image_with_a_jvm_s_memory(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        assertThat(rendered.pods())
                .allSatisfy(pod -> assertThat(pod.container().getImage())
                        .as(pod.workload())
                        .matches("registry\\.example\\.com/cql-patterns/cql-patterns(-[a-z]+)?:.+")
                        .doesNotContain("-native"));
        functions(rendered).forEach((group, f) -> {
            Container container =
                    f.getSpec().getTemplate().getSpec().getContainers().get(0);
            assertThat(container.getImage()).as(group.id()).contains("/cql-patterns-" + group.id() + ":");
            assertThat(container.getResources().getLimits().get("memory"))
                    .as(group.id())
                    .isEqualTo(new Quantity("256Mi"));
        });
    }

    @ParameterizedTest
    @FieldSource("dev.cqlpatterns.delivery.RenderedOverlay#OVERLAYS")
    void should_migrate_in_a_job_with_the_all_groups_image(String overlay) {
        Job migrate = RenderedOverlay.of(overlay).one(Job.class);
        Container container =
                migrate.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(container.getArgs()).containsExactly("migrate");
        assertThat(container.getImage()).matches("(.*/)?cql-patterns(-native)?:.+");
        assertThat(migrate.getSpec().getTemplate().getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(migrate.getSpec().getActiveDeadlineSeconds()).isPositive();
    }

    @ParameterizedTest
    @FieldSource("FUNCTION_OVERLAYS")
    void should_run_each_job_tick_from_a_cron_job_once_at_a_time(String overlay) {
        Map<String, CronJob> cronJobs = RenderedOverlay.of(overlay).all(CronJob.class).stream()
                .collect(Collectors.toMap(c -> c.getMetadata().getName(), Function.identity()));
        Map<String, String> schedules = Map.of(BucketRoller.JOB, "*/5 * * * *");
        assertThat(cronJobs).hasSameSizeAs(schedules);
        schedules.forEach((job, schedule) -> {
            CronJob cronJob = cronJobs.get("cql-patterns-" + job);
            assertThat(cronJob).as(job).isNotNull();
            assertThat(cronJob.getSpec().getSchedule()).isEqualTo(schedule);
            assertThat(cronJob.getSpec().getConcurrencyPolicy()).isEqualTo("Forbid");
            assertThat(cronJob.getSpec().getSuccessfulJobsHistoryLimit()).isBetween(0, 3);
            assertThat(cronJob.getSpec().getFailedJobsHistoryLimit()).isBetween(1, 5);
            var spec = cronJob.getSpec().getJobTemplate().getSpec();
            // Stopped before the next run is due.
            assertThat(spec.getActiveDeadlineSeconds()).isPositive().isLessThan(minutes(schedule) * 60L);
            Container container = spec.getTemplate().getSpec().getContainers().get(0);
            assertThat(container.getArgs()).containsExactly("job", job);
            assertThat(container.getImage()).matches("(.*/)?cql-patterns(-native)?:.+");
        });
    }

    private static int minutes(String schedule) {
        String field = schedule.split(" ")[0];
        return field.equals("*") ? 1 : Integer.parseInt(field.substring(2));
    }

    /** The overlay's Knative Services by the function group each serves (its component label). */
    static Map<FunctionGroup, Service> functions(RenderedOverlay rendered) {
        Map<String, FunctionGroup> groups =
                Arrays.stream(FunctionGroup.values()).collect(Collectors.toMap(FunctionGroup::id, Function.identity()));
        return rendered.all(Service.class).stream()
                .collect(Collectors.toMap(
                        s -> {
                            String component = s.getMetadata().getLabels().get("app.kubernetes.io/component");
                            FunctionGroup group = groups.get(component);
                            assertThat(group)
                                    .as(s.getMetadata().getName() + " serves no function group")
                                    .isNotNull();
                            assertThat(s.getMetadata().getName()).isEqualTo("cql-patterns-" + group.id());
                            return group;
                        },
                        Function.identity()));
    }
}

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The measuring half of bin/cold-start (which builds, seeds and calls this); it prints figures and
 * asserts nothing. JDK 17: {@code java bench/ColdStart.java <mode> ...}.
 *
 * <pre>
 *   measure &lt;app dir&gt; &lt;java&gt; &lt;probe path&gt; &lt;results.tsv&gt; &lt;group&gt; &lt;variant&gt; &lt;starts&gt; [jvm args...]
 *   train   &lt;app dir&gt; &lt;java&gt; &lt;probe path&gt; &lt;requests&gt; [jvm args...]
 *   report  &lt;results.tsv&gt;
 * </pre>
 *
 * measure: starts the app N times (its own free port each time, the environment of this process plus
 * PORT); from just before the process starts, polls the probe every 5 ms until a 200 (noting when
 * the port first answered and the CPU time the process had used by the 200), then sends
 * 1,000 requests to it (4 in flight), reads VmRSS from /proc/&lt;pid&gt;/status, reads it again after
 * 5 s without requests (what an idle warm instance holds: the JVM gives back the C1 compiler's
 * freed scratch memory only after the burst, see README "Cold start"), stops the process with
 * SIGTERM and takes Quarkus's "started in" from its log. One line per start goes to the TSV.
 * train: one start with the given JVM args, until a 200, then that many requests, then SIGTERM and
 * a wait for exit (an AOT recording run writes its configuration at exit). PROBE_TOKEN, when set, is
 * sent as the bearer token. The app runs in its own directory, as an AOT cache requires.
 */
public class ColdStart {
    static final int REQUESTS = 1000;
    static final int IN_FLIGHT = 4;
    static final long IDLE_MS = 5000;
    static final Pattern STARTED = Pattern.compile("started in ([0-9.]+)s");
    static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    public static void main(String[] args) throws Exception {
        switch (args.length == 0 ? "" : args[0]) {
            case "measure" -> measure(args);
            case "train" -> train(args);
            case "report" -> report(Path.of(args[1]));
            default -> {
                System.err.println("usage: java bench/ColdStart.java measure|train|report ... (see bin/cold-start)");
                System.exit(2);
            }
        }
    }

    static void measure(String[] a) throws Exception {
        Path app = Path.of(a[1]);
        String javaBin = a[2], probe = a[3];
        Path tsv = Path.of(a[4]);
        String group = a[5], variant = a[6];
        int starts = Integer.parseInt(a[7]);
        List<String> jvm = List.of(a).subList(8, a.length);
        warmUpClient();
        for (int s = 1; s <= starts; s++) {
            int port = freePort();
            Path log = app.resolve("cold-start-" + s + ".log");
            long t0 = System.nanoTime();
            Process p = start(app, javaBin, jvm, port, log);
            double firstOkMs = untilOk(p, port, probe, t0) / 1e6;
            double cpuMs = cpuMs(p.pid());
            int errors = load(port, probe, REQUESTS);
            double rssMb = rssKb(p.pid()) / 1024.0;
            Thread.sleep(IDLE_MS);
            double idleRssMb = rssKb(p.pid()) / 1024.0;
            stop(p);
            double startedIn = startedIn(log);
            String row = String.join(
                    "\t",
                    group,
                    variant,
                    String.valueOf(s),
                    fmt(firstOkMs),
                    fmt(startedIn),
                    fmt(rssMb),
                    String.valueOf(errors),
                    fmt(idleRssMb),
                    fmt(cpuMs));
            Files.writeString(tsv, row + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            System.out.printf(
                    "cold-start: %-9s %-16s start %d: first answer after %.0f ms, first 200 after %.0f ms (%.0f ms of CPU), started in %.3f s, RSS %.1f MB after %d requests (%d not 200), %.1f MB %d s later%n",
                    group,
                    variant,
                    s,
                    firstAnswer / 1e6,
                    firstOkMs,
                    cpuMs,
                    startedIn,
                    rssMb,
                    REQUESTS,
                    errors,
                    idleRssMb,
                    IDLE_MS / 1000);
        }
    }

    static void train(String[] a) throws Exception {
        Path app = Path.of(a[1]);
        String javaBin = a[2], probe = a[3];
        int requests = Integer.parseInt(a[4]);
        List<String> jvm = List.of(a).subList(5, a.length);
        int port = freePort();
        Process p = start(app, javaBin, jvm, port, app.resolve("cold-start-training.log"));
        untilOk(p, port, probe, System.nanoTime());
        int errors = load(port, probe, requests);
        stop(p);
        System.out.printf(
                "cold-start: training run sent %d requests to %s (%d not 200), exit %d%n",
                requests, probe, errors, p.exitValue());
    }

    static Process start(Path app, String java, List<String> jvm, int port, Path log) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(jvm);
        cmd.addAll(List.of("-jar", "quarkus-run.jar"));
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(app.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().put("PORT", String.valueOf(port));
        return pb.start();
    }

    /** Nanoseconds from t0 to the probe's first answer of any status (the socket open), set by untilOk. */
    static long firstAnswer;

    /** Nanoseconds from t0 to the probe's first 200, polling every 5 ms. */
    static long untilOk(Process p, int port, String probe, long t0) throws Exception {
        HttpRequest req = request(port, probe);
        firstAnswer = -1;
        long deadline = t0 + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException(
                        "the app exited with " + p.exitValue() + " before answering 200 (see its log)");
            }
            try {
                int status =
                        HTTP.send(req, HttpResponse.BodyHandlers.discarding()).statusCode();
                if (firstAnswer < 0) {
                    firstAnswer = System.nanoTime() - t0;
                }
                if (status == 200) {
                    return System.nanoTime() - t0;
                }
                if (status / 100 == 4) { // 503 until the session connects; a 4xx never turns into a 200
                    p.destroyForcibly();
                    throw new IllegalStateException(probe + " answered " + status + ": is the probe's data seeded?");
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(5);
        }
        p.destroyForcibly();
        throw new IllegalStateException("no 200 from " + probe + " within 120 s");
    }

    /** Sends n requests, IN_FLIGHT at a time; answers how many were not 200. */
    static int load(int port, String probe, int n) throws Exception {
        HttpRequest req = request(port, probe);
        Semaphore slots = new Semaphore(IN_FLIGHT);
        AtomicInteger errors = new AtomicInteger();
        List<CompletableFuture<?>> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            slots.acquire();
            all.add(HTTP.sendAsync(req, HttpResponse.BodyHandlers.discarding()).whenComplete((r, f) -> {
                if (f != null || r.statusCode() != 200) {
                    errors.incrementAndGet();
                }
                slots.release();
            }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                .exceptionally(f -> null)
                .join();
        return errors.get();
    }

    static HttpRequest request(int port, String probe) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + probe))
                .timeout(Duration.ofSeconds(10));
        String token = System.getenv("PROBE_TOKEN");
        if (token != null && !token.isEmpty()) {
            b.header("Authorization", "Bearer " + token);
        }
        return b.build();
    }

    /** SIGTERM (Process.destroy on Linux), as Kubernetes stops a pod; SIGKILL after 60 s. */
    static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
        }
    }

    static long rssKb(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    /**
     * The process's CPU time so far (user and system, /proc/&lt;pid&gt;/stat, 10 ms ticks): the work a
     * start did, which other processes on a shared machine disturb much less than its wall time.
     */
    static double cpuMs(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10.0; // fields 14 and 15: utime, stime
    }

    static double startedIn(Path log) throws IOException {
        Matcher m = STARTED.matcher(Files.readString(log));
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }

    /** Loads the client's own HTTP classes before the first timed start. */
    static void warmUpClient() throws Exception {
        int port = freePort();
        for (int i = 0; i < 20; i++) {
            try {
                HTTP.send(request(port, "/"), HttpResponse.BodyHandlers.discarding());
            } catch (IOException expected) {
                // nothing listens there
            }
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static String fmt(double d) {
        return String.format("%.3f", d);
    }

    // ---- Report -----------------------------------------------------------------------------

    /** The table of bin/cold-start: per group and variant, medians and ranges over the starts. */
    static void report(Path tsv) throws IOException {
        Map<String, List<double[]>> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(tsv)) {
            String[] f = line.split("\t");
            rows.computeIfAbsent(f[0] + "\t" + f[1], k -> new ArrayList<>()).add(new double[] {
                Double.parseDouble(f[3]),
                Double.parseDouble(f[4]),
                Double.parseDouble(f[5]),
                Double.parseDouble(f[6]),
                f.length > 7 ? Double.parseDouble(f[7]) : Double.NaN,
                f.length > 8 ? Double.parseDouble(f[8]) : Double.NaN
            }); // no idle or CPU column in older runs
        }
        System.out.println(
                "| group | variant | starts | first 200 ms, median (min–max) | CPU ms to it, median | \"started in\" s, median | RSS MB after 1,000 req, median (max) | RSS MB 5 s later, median (max) | not 200 | target (b): ≤ 700 ms and ≤ 150 MB |");
        System.out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
        rows.forEach((key, list) -> {
            String[] k = key.split("\t");
            double[] first = column(list, 0),
                    started = column(list, 1),
                    rss = column(list, 2),
                    idle = column(list, 4),
                    cpu = column(list, 5);
            long errors = (long) Arrays.stream(column(list, 3)).sum();
            String target = "–";
            if (k[1].startsWith("jdk25")) {
                boolean time = median(first) <= 700, mem = median(rss) <= 150;
                target = (time && mem ? "met" : "missed") + " (" + (time ? "time ok" : "time over") + ", "
                        + (mem ? "RSS ok" : "RSS over") + ")";
            }
            System.out.printf(
                    "| %s | %s | %d | %.0f (%.0f–%.0f) | %.0f | %.3f | %.0f (%.0f) | %.0f (%.0f) | %d | %s |%n",
                    k[0],
                    k[1],
                    list.size(),
                    median(first),
                    first[0],
                    first[first.length - 1],
                    median(cpu),
                    median(started),
                    median(rss),
                    rss[rss.length - 1],
                    median(idle),
                    idle[idle.length - 1],
                    errors,
                    target);
        });
    }

    static double[] column(List<double[]> list, int i) {
        double[] c = list.stream().mapToDouble(r -> r[i]).toArray();
        Arrays.sort(c);
        return c;
    }

    static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}

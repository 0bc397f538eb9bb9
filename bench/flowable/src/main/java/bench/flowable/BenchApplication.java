package bench.flowable;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Flowable 7's process REST API (/process-api) on PostgreSQL, and the bench's process
 * (processes/bench-chain3.bpmn20.xml, deployed at start-up). bench/flowable.ts starts it with the
 * database and port as arguments.
 */
@SpringBootApplication
public class BenchApplication {
  public static void main(String[] args) {
    SpringApplication.run(BenchApplication.class, args);
  }
}

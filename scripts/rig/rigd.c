// SPDX-License-Identifier: GPL-2.0
/*
 * rigd - remote command execution between the rig's test hosts.
 *
 * Each QEMU host runs "rigd serve ADDR" on its management link; tests on
 * one host run commands on the other with "rigd exec ADDR 'cmd'", which
 * behaves like "ssh host 'cmd'": stdout and stderr are relayed and the
 * exit status is the remote command's.  "rigd wait ADDR SECONDS" returns
 * once a server answers, so boot order needs no sleeps.
 *
 * Wire format over TCP port RIGD_PORT:
 *   request:  'X' u32 len, then len bytes of a /bin/sh command line
 *   replies:  'O' or 'E' u32 len + bytes (stdout / stderr), repeated,
 *             then 'S' u32 wait-status
 * All u32 are big-endian.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RIGD_PORT	7788
#define RIGD_MAX_CMD	(1 << 20)

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= n;
	}
	return 0;
}

static int read_all(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

static int send_frame(int fd, char type, const void *data, uint32_t len)
{
	unsigned char hdr[5];
	uint32_t be = htonl(len);

	hdr[0] = type;
	memcpy(hdr + 1, &be, 4);
	if (write_all(fd, hdr, sizeof(hdr)))
		return -1;
	return len ? write_all(fd, data, len) : 0;
}

static int parse_addr(const char *host, struct sockaddr_in *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons(RIGD_PORT);
	return inet_pton(AF_INET, host, &sa->sin_addr) == 1 ? 0 : -1;
}

/* Run one request on connection @c; never returns. */
static void serve_one(int c)
{
	int out[2], err[2], status = 0, open_fds = 2;
	unsigned char hdr[5];
	char buf[65536];
	uint32_t len;
	char *cmd;
	pid_t pid;

	if (read_all(c, hdr, 5) || hdr[0] != 'X')
		_exit(1);
	memcpy(&len, hdr + 1, 4);
	len = ntohl(len);
	if (len > RIGD_MAX_CMD)
		_exit(1);
	cmd = calloc(1, len + 1);
	if (!cmd || read_all(c, cmd, len))
		_exit(1);
	if (pipe(out) || pipe(err))
		_exit(1);
	pid = fork();
	if (pid < 0)
		_exit(1);
	if (pid == 0) {
		int devnull = open("/dev/null", 0);

		dup2(devnull, 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		/* only 0-2 may reach the command, or its background
		 * children keep our pipes open
		 */
		close(devnull);
		close(out[0]);
		close(err[0]);
		close(out[1]);
		close(err[1]);
		close(c);
		signal(SIGPIPE, SIG_DFL);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	while (open_fds) {
		struct pollfd p[2] = {
			{ .fd = out[0], .events = POLLIN },
			{ .fd = err[0], .events = POLLIN },
		};
		int i;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < 2; i++) {
			ssize_t n;

			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP)))
				continue;
			n = read(p[i].fd, buf, sizeof(buf));
			if (n <= 0) {
				close(i ? err[0] : out[0]);
				if (i)
					err[0] = -1;
				else
					out[0] = -1;
				open_fds--;
				continue;
			}
			if (send_frame(c, i ? 'E' : 'O', buf, n))
				_exit(1);
		}
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	send_frame(c, 'S', NULL, 0);
	len = htonl((uint32_t)status);
	write_all(c, &len, 4);
	_exit(0);
}

static int cmd_serve(const char *host)
{
	struct sockaddr_in sa;
	int one = 1, s;

	if (parse_addr(host, &sa)) {
		fprintf(stderr, "rigd: bad address %s\n", host);
		return 2;
	}
	signal(SIGCHLD, SIG_IGN);	/* reap connection handlers */
	signal(SIGPIPE, SIG_IGN);
	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(s, (struct sockaddr *)&sa, sizeof(sa)) || listen(s, 64)) {
		perror("rigd: listen");
		return 1;
	}
	for (;;) {
		int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
		pid_t pid;

		if (c < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			perror("rigd: accept");
			return 1;
		}
		pid = fork();
		if (pid == 0) {
			close(s);
			/* the command's children must see default SIGCHLD */
			signal(SIGCHLD, SIG_DFL);
			setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
			serve_one(c);
		}
		close(c);
	}
}

static int connect_to(const char *host)
{
	struct sockaddr_in sa;
	int s;

	if (parse_addr(host, &sa)) {
		fprintf(stderr, "rigd: bad address %s\n", host);
		return -2;
	}
	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	if (connect(s, (struct sockaddr *)&sa, sizeof(sa))) {
		close(s);
		return -1;
	}
	return s;
}

static int cmd_exec(const char *host, const char *cmd)
{
	unsigned char hdr[5];
	char buf[65536];
	uint32_t len;
	int s;

	s = connect_to(host);
	if (s < 0) {
		fprintf(stderr, "rigd: cannot reach %s: %s\n", host,
			strerror(errno));
		return 255;
	}
	if (send_frame(s, 'X', cmd, strlen(cmd))) {
		perror("rigd: send");
		return 255;
	}
	for (;;) {
		if (read_all(s, hdr, 5)) {
			fprintf(stderr, "rigd: connection to %s lost\n", host);
			return 255;
		}
		memcpy(&len, hdr + 1, 4);
		len = ntohl(len);
		if (hdr[0] == 'S') {
			uint32_t st;

			if (read_all(s, &st, 4))
				return 255;
			st = ntohl(st);
			if (WIFEXITED(st))
				return WEXITSTATUS(st);
			return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		}
		while (len) {
			uint32_t chunk = len < sizeof(buf) ? len : sizeof(buf);

			if (read_all(s, buf, chunk))
				return 255;
			write_all(hdr[0] == 'E' ? 2 : 1, buf, chunk);
			len -= chunk;
		}
	}
}

/* Wait until a server answers at @host, up to @secs seconds. */
static int cmd_wait(const char *host, int secs)
{
	struct timespec start, now, pause = { 0, 50 * 1000 * 1000 };

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		int s = connect_to(host);

		if (s >= 0) {
			close(s);
			return 0;
		}
		if (s == -2)
			return 2;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= secs) {
			fprintf(stderr, "rigd: %s did not answer in %d s\n",
				host, secs);
			return 1;
		}
		/* the peer VM is still booting: back off briefly and retry */
		nanosleep(&pause, NULL);
	}
}

static void usage(void)
{
	fprintf(stderr,
		"usage: rigd serve ADDR\n"
		"       rigd exec ADDR 'shell command'\n"
		"       rigd wait ADDR SECONDS\n");
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "serve"))
		return cmd_serve(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "exec"))
		return cmd_exec(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "wait"))
		return cmd_wait(argv[2], atoi(argv[3]));
	usage();
	return 2;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: block devices as sysfs and /dev show them: a device's sysfs
 * directory, its canonical /dev path, the attributes the tool reads.
 */
#ifndef SSDSTRIPE_DEV_H
#define SSDSTRIPE_DEV_H

#include <stdbool.h>
#include <stddef.h>

/* sysdir: /sys/devices/... of block device node DEV (malloc'd), NULL if none */
char *dev_sysdir(const char *dev);
/* canon: the canonical /dev path of a device given as a path or a name */
char *dev_canon(const char *arg);
/* devpath: the /dev path of kernel name NAME, dm devices by /dev/mapper name */
char *dev_path(const char *name);

/* dev_pretty: a kernel name as people know it: dm-N as mapper/NAME */
char *dev_pretty(const char *name);

/*
 * read_attr: FILE's first line (without its newline) into BUF; false
 * (BUF empty) when it cannot be read or is empty
 */
bool read_attr(const char *file, char *buf, size_t len);
/* attr_at: read_attr of DIR/NAME */
bool attr_at(const char *dir, const char *name, char *buf, size_t len);
/* sysfs_word: FILE's printable text, trimmed; false if none */
bool sysfs_word(const char *file, char *buf, size_t len);
/* drive_serial: the serial of the drive whose sysfs directory is DIR */
bool drive_serial(const char *dir, char *buf, size_t len);

/*
 * pathf: a path into BUF (LEN bytes) from FMT; false (BUF empty) when it
 * would not fit, so that no cut path is ever opened
 */
bool pathf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

bool path_exists(const char *dir, const char *name);
bool is_dir(const char *dir, const char *name);

/* names_sort: V's N names in byte order, as a C-locale glob gives them */
void names_sort(char **v, size_t n);
/* the entries of DIR but . and .., sorted by name; free with names_free */
char **dir_names(const char *dir, size_t *n);
/* the kernel names of /sys/class/block, sorted */
char **block_names(size_t *n);
void names_free(char **v, size_t n);
/* of V (N names, malloc'd; taken over), those KEEP says yes to, in order;
 * the others freed */
char **names_keep(char **v, size_t n, bool (*keep)(const char *name, void *ctx), void *ctx,
		  size_t *kept);
/*
 * dev_candidates: the /dev paths of every block device a label could be
 * on (whole disks, partitions, dm; not held, not our arrays, larger than
 * the label area and tail), in kernel-name order
 */
char **dev_candidates(size_t *n);
/* the /dev path of block device MAJ:MIN (dm devices by name); NULL none */
char *dev_of_majmin(const char *mm);
/* dev_link_name: the name at the end of link P, as readlink -f gives it
 * (a link that leads nowhere: the name it names), into BUF */
void dev_link_name(const char *p, char *buf, size_t len);

#endif

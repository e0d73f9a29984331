/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 The Telegraphos NIC authors */
/* DMA-able host memory for a PCIe-attached NIC: hugepages, their physical
 * addresses from /proc/self/pagemap, and interrupts from UIO or VFIO
 * (docs/hardware.md, "Memory for DMA and interrupts"). */
#ifndef TG_DMA_H
#define TG_DMA_H

#include <stddef.h>
#include <stdint.h>

/* ---- /proc/<pid>/pagemap --------------------------------------------------
 * One 64-bit entry per base page of the virtual address space: [63]
 * present, [62] swapped, [54:0] page frame number.  Without CAP_SYS_ADMIN
 * the kernel reports present pages with PFN 0. */

#define TG_PAGEMAP_PRESENT   (1ULL << 63)
#define TG_PAGEMAP_SWAPPED   (1ULL << 62)
#define TG_PAGEMAP_PFN_MASK  ((1ULL << 55) - 1)

/* Physical address of virtual address va from its pagemap entry, with
 * base pages of pgsz bytes.  Returns 0, -EFAULT (not present, or swapped
 * out) or -EPERM (present but the PFN is hidden). */
int tg_pagemap_decode(uint64_t entry, uint64_t va, uint64_t pgsz, uint64_t *pa);

/* Look va up in the pagemap open at fd (base pages of pgsz bytes: the
 * entry of va is at byte va / pgsz * 8).  Returns 0, the errors of
 * tg_pagemap_decode, -EIO (short read) or -errno of pread. */
int tg_pagemap_phys(int fd, uint64_t va, uint64_t pgsz, uint64_t *pa);

/* Physical address of [va, va + len) and how many bytes from va are
 * physically contiguous, looking at one address per chunk bytes (the
 * backing page size: a hugepage is contiguous in itself).  va and len are
 * multiples of chunk.  Returns 0 with *pa and *contig, or the error of the
 * first lookup that fails. */
int tg_pagemap_contig(int fd, uint64_t va, uint64_t len, uint64_t chunk, uint64_t pgsz,
		      uint64_t *pa, uint64_t *contig);

/* ---- DMA memory -------------------------------------------------------- */

struct tg_dma_mem {
	uint8_t *va;        /* mapping, NULL when none */
	uint64_t len;       /* bytes mapped */
	uint64_t page;      /* size of the pages backing it */
	uint64_t phys;      /* physical address of va[0], when has_phys */
	int has_phys;       /* 0: memory of a stand-in file, no physical address */
};

#define TG_HUGE_2M  (2ULL << 20)
#define TG_HUGE_1G  (1ULL << 30)

/* Map len bytes (rounded up to page) of hugepages of `page` bytes
 * (TG_HUGE_2M or TG_HUGE_1G), populated and zeroed (hugetlb pages are
 * never swapped out), and find their physical address through the
 * pagemap file at `pagemap` (NULL: /proc/self/pagemap).  The memory must be one physically contiguous
 * block: the NIC addresses it by offset from one base.  Returns 0, or
 * -errno with the reason and the remedy in msg:
 *   -ENOMEM  not enough free hugepages of that size (nr_hugepages);
 *   -EPERM   the pagemap hides PFNs (needs CAP_SYS_ADMIN);
 *   -EXDEV   the pages are not physically contiguous;
 *   -EINVAL  bad len or page. */
int tg_dma_hugepage_alloc(uint64_t len, uint64_t page, const char *pagemap,
			  struct tg_dma_mem *m, char *msg, size_t msg_sz);

/* As tg_dma_hugepage_alloc without the physical address (has_phys 0):
 * the memory an IOMMU maps, so it need not be contiguous.  Errors
 * -ENOMEM and -EINVAL as there. */
int tg_dma_hugepage_map(uint64_t len, uint64_t page, struct tg_dma_mem *m, char *msg,
			size_t msg_sz);

/* Map len bytes of the file at path (created, grown and zeroed) in place
 * of DMA memory: no physical address, for tests and for a NIC behind an
 * IOMMU that maps the same file.  Returns 0 or -errno with msg. */
int tg_dma_file_map(const char *path, uint64_t len, struct tg_dma_mem *m, char *msg,
		    size_t msg_sz);

/* Unmap.  Accepts a zeroed or freed m. */
void tg_dma_free(struct tg_dma_mem *m);

/* Free hugepages of `page` bytes from sysfs (root may be NULL for
 * /sys/kernel/mm/hugepages), or -errno. */
long tg_dma_free_hugepages(const char *root, uint64_t page);

/* ---- PCI config space ---------------------------------------------------
 * Set Bus Master Enable (COMMAND bit 2) in the config space open at fd,
 * which starts at byte off of the file (0 for sysfs <bdf>/config, the
 * config region's offset for a VFIO device).  The NIC's DMA needs it; no
 * kernel driver of ours sets it.  Returns 0 or -errno (-EIO short). */
int tg_pci_cfg_bus_master(int fd, uint64_t off);

/* ---- VFIO (an IOMMU in front of the NIC) ---------------------------------
 * The function bound to vfio-pci, its IOMMU group in a type-1 container,
 * DMA memory mapped at IOVA 0 so that the NIC's paddr is the offset into
 * that memory. */

struct tg_vfio;

/* IOMMU group number of function bdf from the <root>/<bdf>/iommu_group
 * link (root NULL: /sys/bus/pci/devices).  Returns it, or -ENODEV with msg
 * (no IOMMU group: the IOMMU is off) or -errno. */
int tg_vfio_group_of(const char *root, const char *bdf, char *msg, size_t msg_sz);

/* Name of the kernel driver bound to bdf (basename of <root>/<bdf>/driver)
 * into name; returns 0, or -ENOENT (none bound). */
int tg_pci_driver_of(const char *root, const char *bdf, char *name, size_t name_sz);

/* Open the VFIO container and group of bdf (dev_dir NULL: /dev/vfio), set
 * the type-1 IOMMU, get the device and set Bus Master Enable.  Returns
 * NULL with errno and msg: ENODEV no IOMMU group, ENOENT no /dev/vfio
 * (vfio-pci not loaded or the function not bound to it), EACCES (the
 * group's device file), EBUSY (group not viable: another function of
 * the group is bound to a host driver), or the errno of an ioctl. */
struct tg_vfio *tg_vfio_open(const char *root, const char *bdf, const char *dev_dir,
			     char *msg, size_t msg_sz);

/* Map [va, va + len) at iova for the device (read and write).  Returns 0
 * or -errno; tg_vfio_close unmaps. */
int tg_vfio_map(struct tg_vfio *v, void *va, uint64_t len, uint64_t iova);

/* The device's fd (tg_irq_open_vfio). */
int tg_vfio_device_fd(const struct tg_vfio *v);

/* Unmap, close.  Accepts NULL. */
void tg_vfio_close(struct tg_vfio *v);

/* ---- Interrupts --------------------------------------------------------
 * A file descriptor that becomes readable when the NIC raises its
 * interrupt: /dev/uioN (read gives the 32-bit interrupt count), or an
 * eventfd VFIO signals (read gives the 64-bit count since the last read).
 * A FIFO stands in for /dev/uioN in tests, any eventfd for VFIO. */

enum tg_irq_kind { TG_IRQ_UIO = 1, TG_IRQ_EVENTFD = 2 };

struct tg_irq;

/* Open the UIO device (or stand-in) at path.  Returns NULL with errno. */
struct tg_irq *tg_irq_open_uio(const char *path);

/* Take over fd (closed by tg_irq_close), of the given kind. */
struct tg_irq *tg_irq_from_fd(int fd, enum tg_irq_kind kind);

/* Route MSI vector 0 of the VFIO device open at devfd to a new eventfd
 * (VFIO_DEVICE_SET_IRQS).  Returns NULL with errno. */
struct tg_irq *tg_irq_open_vfio(int devfd);

/* Wait at most timeout_ms (negative: forever) for an interrupt.  Returns
 * 0 and *count (the UIO total or the eventfd's count; may be NULL), or
 * -ETIMEDOUT, -EIO (short read) or -errno. */
int tg_irq_wait(struct tg_irq *irq, int timeout_ms, uint64_t *count);

/* After handling: let the next interrupt through (UIO on a character
 * device: write 1, which uio_pci_generic needs to unmask INTx; nothing
 * for an eventfd or a stand-in).  Returns 0 or -errno. */
int tg_irq_unmask(struct tg_irq *irq);

/* The descriptor, for poll loops. */
int tg_irq_fd(const struct tg_irq *irq);

void tg_irq_close(struct tg_irq *irq);

#endif /* TG_DMA_H */

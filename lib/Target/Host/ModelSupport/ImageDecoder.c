/*===- ImageDecoder.c - ImageDecoder's codecs, inside model.so ------------===*
 *
 * Compiled to LLVM bitcode at build time and linked into a model library
 * only when the model decodes images (tc.image_decode). The codecs come from
 * FreeImage (Debian's libfreeimage3: BMP, JPEG, JPEG 2000, PNG, PNM, TIFF,
 * WebP and more), loaded with dlopen on first use, so that a model without
 * images never needs it and a missing library is an error of the run, not
 * of loading the model.
 *
 * Pixels follow the ONNX reference (Pillow): JPEG with the accurate integer
 * IDCT and fancy upsampling, no gamma correction of PNG, no EXIF rotation,
 * alpha dropped, and Grayscale from RGB as Pillow's "L" conversion:
 * (19595 R + 38470 G + 7471 B + 2^15) >> 16.
 *
 * The generated code passes pointers as 64-bit integers:
 *   h = tc_image_decode_v1(data, size, format)   format 0 RGB, 1 BGR, 2 gray
 *   tc_image_status_v1(h)       0 ok, 1 no FreeImage, 2 not an image it can
 *                               decode, 3 out of memory
 *   tc_image_extent_v1(h, axis) height (axis 0) or width (axis 1); 0 after
 *                               an error
 *   tc_image_finish_v1(h, out)  copies the H x W x C pixels to `out` (when
 *                               the status is 0 and out is not 0) and
 *                               releases h.
 * A failed decode holds nothing: its handle is the negated status, not an
 * allocation, because a failed run-time check leaves the model before it
 * reaches tc_image_finish_v1 (which would otherwise have to free it).
 *===----------------------------------------------------------------------===*/

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { kOk = 0, kNoLibrary = 1, kUndecodable = 2, kOutOfMemory = 3 };
enum { kRgb = 0, kBgr = 1, kGray = 2 };

/* The FreeImage functions used, declared here so that building tc needs no
 * FreeImage headers (the C calling convention on Linux). */
typedef struct FIMEMORY FIMEMORY;
typedef struct FIBITMAP FIBITMAP;
static struct {
  FIMEMORY *(*openMemory)(uint8_t *data, uint32_t size);
  void (*closeMemory)(FIMEMORY *stream);
  int (*fileTypeFromMemory)(FIMEMORY *stream, int size);
  FIBITMAP *(*loadFromMemory)(int format, FIMEMORY *stream, int flags);
  FIBITMAP *(*convertTo24Bits)(FIBITMAP *bitmap);
  void (*unload)(FIBITMAP *bitmap);
  unsigned (*width)(FIBITMAP *bitmap);
  unsigned (*height)(FIBITMAP *bitmap);
  uint8_t *(*scanLine)(FIBITMAP *bitmap, int line);
  int loaded;
} fi;

static pthread_once_t loadOnce = PTHREAD_ONCE_INIT;

static void loadFreeImage(void) {
  void *library = dlopen("libfreeimage.so.3", RTLD_NOW | RTLD_LOCAL);
  if (!library)
    return;
#define TC_FI(field, symbol)                                                   \
  *(void **)(&fi.field) = dlsym(library, symbol);                              \
  if (!fi.field)                                                               \
    return;
  TC_FI(openMemory, "FreeImage_OpenMemory")
  TC_FI(closeMemory, "FreeImage_CloseMemory")
  TC_FI(fileTypeFromMemory, "FreeImage_GetFileTypeFromMemory")
  TC_FI(loadFromMemory, "FreeImage_LoadFromMemory")
  TC_FI(convertTo24Bits, "FreeImage_ConvertTo24Bits")
  TC_FI(unload, "FreeImage_Unload")
  TC_FI(width, "FreeImage_GetWidth")
  TC_FI(height, "FreeImage_GetHeight")
  TC_FI(scanLine, "FreeImage_GetScanLine")
#undef TC_FI
  fi.loaded = 1;
}

typedef struct Image {
  int32_t status;
  int64_t height, width, channels;
  uint8_t *pixels; /* height x width x channels */
} Image;

/* Formats (FREE_IMAGE_FORMAT) and load flags that match Pillow. */
enum { kFifUnknown = -1, kFifJpeg = 2, kFifPng = 13 };
enum { kJpegAccurate = 0x0002, kPngIgnoreGamma = 1 };

static int32_t decode(Image *image, const uint8_t *data, int64_t size,
                      int64_t format) {
  pthread_once(&loadOnce, loadFreeImage);
  if (!fi.loaded)
    return kNoLibrary;
  if (size <= 0 || size > INT32_MAX)
    return kUndecodable;
  /* GPU targets copy the data to host memory first; that allocation failed. */
  if (!data)
    return kOutOfMemory;
  FIMEMORY *stream = fi.openMemory((uint8_t *)data, (uint32_t)size);
  if (!stream)
    return kOutOfMemory;
  int type = fi.fileTypeFromMemory(stream, 0);
  int flags = type == kFifJpeg ? kJpegAccurate
              : type == kFifPng ? kPngIgnoreGamma
                                : 0;
  FIBITMAP *loaded =
      type == kFifUnknown ? NULL : fi.loadFromMemory(type, stream, flags);
  fi.closeMemory(stream);
  if (!loaded)
    return kUndecodable;
  FIBITMAP *rgb = fi.convertTo24Bits(loaded);
  fi.unload(loaded);
  if (!rgb)
    return kUndecodable;
  int64_t height = fi.height(rgb), width = fi.width(rgb);
  int64_t channels = format == kGray ? 1 : 3;
  uint8_t *pixels = malloc(height * width * channels ? height * width * channels : 1);
  if (!pixels) {
    fi.unload(rgb);
    return kOutOfMemory;
  }
  for (int64_t row = 0; row < height; ++row) {
    /* FreeImage stores rows bottom-up, each pixel as B, G, R. */
    const uint8_t *in = fi.scanLine(rgb, (int)(height - 1 - row));
    uint8_t *out = pixels + row * width * channels;
    for (int64_t x = 0; x < width; ++x, in += 3) {
      uint32_t b = in[0], g = in[1], r = in[2];
      if (format == kGray) {
        out[x] = (uint8_t)((19595 * r + 38470 * g + 7471 * b + 0x8000) >> 16);
      } else if (format == kBgr) {
        out[3 * x] = (uint8_t)b, out[3 * x + 1] = (uint8_t)g,
                out[3 * x + 2] = (uint8_t)r;
      } else {
        out[3 * x] = (uint8_t)r, out[3 * x + 1] = (uint8_t)g,
                out[3 * x + 2] = (uint8_t)b;
      }
    }
  }
  fi.unload(rgb);
  image->height = height;
  image->width = width;
  image->channels = channels;
  image->pixels = pixels;
  return kOk;
}

int64_t tc_image_decode_v1(int64_t data, int64_t size, int64_t format) {
  Image *image = calloc(1, sizeof(Image));
  if (!image)
    return -kOutOfMemory;
  int status = decode(image, (const uint8_t *)(uintptr_t)data, size, format);
  if (status != kOk) {
    free(image); /* decode keeps no pixels when it fails */
    return -status;
  }
  image->status = kOk;
  return (int64_t)(uintptr_t)image;
}

int64_t tc_image_status_v1(int64_t handle) {
  return handle < 0 ? -handle : kOk;
}

int64_t tc_image_extent_v1(int64_t handle, int64_t axis) {
  if (handle <= 0)
    return 0;
  const Image *image = (const Image *)(uintptr_t)handle;
  return axis == 0 ? image->height : image->width;
}

void tc_image_finish_v1(int64_t handle, int64_t out) {
  if (handle <= 0)
    return;
  Image *image = (Image *)(uintptr_t)handle;
  if (image->status == kOk && out)
    memcpy((void *)(uintptr_t)out, image->pixels,
           (size_t)(image->height * image->width * image->channels));
  free(image->pixels);
  free(image);
}

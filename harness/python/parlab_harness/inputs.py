"""A dataset's named arrays as NumPy arrays: the parlab-arrays format (manifest.json and
<name>.bin) the generators write and harness/src/dataset_inputs.cpp reads for C++
drivers. Files are opened without following links, as the C++ side opens them."""

import json
import os

_DTYPES = {"f64": "<f8", "f32": "<f4", "i64": "<i8", "i32": "<i4"}


class DatasetError(ValueError):
    pass


def _read_no_follow(directory, name):
    try:
        fd = os.open(os.path.join(directory, name), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as e:
        raise DatasetError(f"cannot open {name} in dataset {directory}: {e.strerror}") from e
    with os.fdopen(fd, "rb") as f:
        return f.read()


def read_array(directory, name):
    import numpy  # only the labs that read arrays need NumPy
    try:
        manifest = json.loads(_read_no_follow(directory, "manifest.json"))
        entry = next(a for a in manifest["arrays"] if a["name"] == name)
        dtype, count, file = _DTYPES[entry["dtype"]], int(entry["count"]), entry["file"]
    except StopIteration:
        raise DatasetError(f"dataset {directory} has no array '{name}'") from None
    except (KeyError, TypeError, ValueError) as e:
        raise DatasetError(f"dataset {directory}: malformed manifest.json ({e})") from e
    if os.sep in file or file in (".", ".."):
        raise DatasetError(f"dataset {directory}: array '{name}' names file '{file}' outside it")
    values = numpy.frombuffer(_read_no_follow(directory, file), dtype=dtype)
    if values.size != count:
        raise DatasetError(f"'{name}' has {values.size} elements, expected {count}")
    return values.astype(dtype[1:], copy=True)


def read_shape(directory, names, generator):
    shape = [int(v) for v in read_array(directory, "shape")]
    if len(shape) != len(names) or any(v < 0 for v in shape):
        raise DatasetError(f"'shape' must be [{', '.join(names)}], got {shape} "
                           f"(was the dataset made by {generator}?)")
    return shape

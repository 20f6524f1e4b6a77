"""The built-in datasets: their files (as stored, with sha256 and sizes), original
sources, splits, shapes, citations and licences. :mod:`olc.data.registry` registers them,
in this order."""

from __future__ import annotations

from .dataset_spec import DatasetSpec, RemoteFile

_LIBSVM = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary/"
_UCI_ADULT = "https://archive.ics.uci.edu/ml/machine-learning-databases/adult/"
_LECUN = "http://yann.lecun.com/exdb/mnist/"
# torchvision's mirror of the same original gzip files (LeCun's site often refuses).
_MNIST_MIRROR = "https://ossci-datasets.s3.amazonaws.com/mnist/"


def _libsvm_file(name, sha256, size, content_sha256, content_size, **extra):
    """One of the LIBSVM binary data sets' files, stored xz-compressed: ``name`` without
    ``.xz`` on the LIBSVM site."""
    return RemoteFile(name, sha256, size, _LIBSVM + name.removesuffix(".xz"),
                      content_sha256=content_sha256, content_size=content_size, **extra)


def _mnist_file(name, sha256, size, content_sha256, content_size, **extra):
    """One of LeCun's gzipped idx files, from his site or the mirror."""
    return RemoteFile(name, sha256, size, _LECUN + name, content_sha256=content_sha256,
                      content_size=content_size, mirrors=(_MNIST_MIRROR + name,), **extra)


_LIBSVM_CITE = (
    "C.-C. Chang and C.-J. Lin, LIBSVM: a library for support vector machines, "
    "ACM TIST 2(3), 2011; data: J. C. Platt, Fast training of support vector machines "
    "using sequential minimal optimization, Advances in Kernel Methods, MIT Press, 1998."
)


BUILT_IN_DATASETS: tuple[DatasetSpec, ...] = (
    DatasetSpec(
        name="a9a",
        description="UCI Adult preprocessed by Platt (LIBSVM a9a): 123 sparse binary "
        "features, labels -1/+1 (+1 = income >50K).",
        files=(
            _libsvm_file("a9a.xz",
                         "c7a2952bcd0877f2c8a6c44b52b1e8086ffff5c4cb1ff9e4d700c97313f2d6a4",
                         153384,
                         "f5d5ffd8d865ff41328e7ee043e4b020816914ff6843ff15b98905ddbedce906",
                         2329875),
            _libsvm_file("a9a.t.xz",
                         "062c4d552cafaf641effeb9742e80775d9c5593245da70817ed5c22f3dd9e0bc",
                         78544,
                         "1f448a153f0320399a7e40836eb207655b0bde0f21fc941cc472193daa9f5de9",
                         1164628),
        ),
        splits={"train": ("a9a.xz",), "test": ("a9a.t.xz",)},
        loader="svmlight",
        n_rows={"train": 32561, "test": 16281},
        n_features=123,
        citation=_LIBSVM_CITE + " Underlying data: B. Becker and R. Kohavi, Adult, UCI "
        "Machine Learning Repository, 1996, https://doi.org/10.24432/C5XW20.",
        source="https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary.html#a9a",
        license="no explicit license (LIBSVM page); underlying UCI Adult: CC BY 4.0",
        extra={"positives": {"train": 7841, "test": 3846}},
    ),

    DatasetSpec(
        name="w8a",
        description="Platt's web-page classification data (LIBSVM w8a): 300 sparse binary "
        "keyword features, labels -1/+1; many rows have no features at all.",
        files=(
            _libsvm_file("w8a.xz",
                         "290f6e8676b48fff31b557cbd09be4772120230198f0d0346f9fdf65e732cb30",
                         356284,
                         "6a9fa8fd5f524303240a5db07d4b3d4a51e8b7b4b20a914105d8e3e8c81640f2",
                         3478238,
                         note="a copy with one extra trailing empty line (3478239 bytes, sha256 "
                         "b464b4f6...) parses identically but is not accepted"),
            _libsvm_file("w8a.t.xz",
                         "8807fb7d82a8de9609ac8d570c9286f3595f271e1a61d830db3c8a0f08c756fc",
                         121232,
                         "618929ecb01bebb841daec4cae4aa07b97832d29b08652452775598929547fde",
                         1045870),
        ),
        splits={"train": ("w8a.xz",), "test": ("w8a.t.xz",)},
        loader="svmlight",
        n_rows={"train": 49749, "test": 14951},
        n_features=300,
        citation=_LIBSVM_CITE,
        source="https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary.html#w8a",
        license="no explicit license (LIBSVM page)",
        extra={"positives": {"train": 1479, "test": 454}},
    ),

    DatasetSpec(
        name="adult",
        description="UCI Adult (Census Income), the original raw files: 14 attributes "
        "(6 continuous, 8 categorical, '?' = missing) and the income label.",
        files=(
            RemoteFile(
                "adult.data.xz",
                "1a26c887f4b7b4b4e0f99750aca36e24a777e32b8f3a51118d33048407422670",
                313124,
                _UCI_ADULT + "adult.data",
                content_sha256="5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d",
                content_size=3974305,
            ),
            RemoteFile(
                "adult.test.xz",
                "7b7089b2b40308e71efb4afe0dc2a9b80b761ad4b9b19f2157ff54d952a621e2",
                160484,
                _UCI_ADULT + "adult.test",
                content_sha256="a2a9044bc167a35b2361efbabec64e89d69ce82d9790d2980119aac5fd7e9c05",
                content_size=2003153,
            ),
            RemoteFile(
                "adult.names.xz",
                "6739ab8145b2611093eed8fb1ab3cecad1d5d1c8683b963db7948ee206465fa1",
                2644,
                _UCI_ADULT + "adult.names",
                content_sha256="c248284c0b5de30c9e1958d6cdd168a34a654758b620e68f46aefa83fc0a576a",
                content_size=5229,
                optional=True,
                note="description only; the loader does not read it",
            ),
        ),
        splits={"train": ("adult.data.xz",), "test": ("adult.test.xz",)},
        loader="adult",
        n_rows={"train": 32561, "test": 16281},
        n_features=14,
        citation="B. Becker and R. Kohavi, Adult, UCI Machine Learning Repository, 1996, "
        "https://doi.org/10.24432/C5XW20; R. Kohavi, Scaling up the accuracy of "
        "naive-Bayes classifiers: a decision-tree hybrid, KDD 1996.",
        source="https://archive.ics.uci.edu/dataset/2/adult",
        license="CC BY 4.0",
        extra={"positives": {"train": 7841, "test": 3846}},
    ),

    DatasetSpec(
        name="usps",
        description="USPS handwritten digits, 16x16 grey levels in [0, 1] (ESL version "
        "rescaled by (x+1)/2, Kaggle HDF5 layout), digits 0-9.",
        files=(
            RemoteFile(
                "usps.h5.xz",
                "cbe18fe78f18f83a664fd9f4098ebeddc4f8bb8974fb8e0dd5664376b7980519",
                2886268,
                # The originals are not downloadable in this form: ESL's zip.train.gz /
                # zip.test.gz are text in [-1, 1], the Kaggle HDF5 needs a login. This
                # pinned commit holds the exact usps.h5 bytes we verify (see README).
                "https://raw.githubusercontent.com/niuers/Learning-From-Data-A-Short-Course/"
                "35684e893b63bf4039bafcc6d34fe935851baf9a/data/usps.h5",
                content_sha256="734f88c541104a956d88be2c95d03b4a463ffd74ccc2ba9c80841fb98e3fcb36",
                content_size=2913522,
                note="the download URL is a public copy of Kaggle's usps.h5 (bistaumanga/"
                "usps-dataset), byte-identical to what is verified here",
            ),
        ),
        splits={"train": ("usps.h5.xz",), "test": ("usps.h5.xz",)},
        loader="usps",
        n_rows={"train": 7291, "test": 2007},
        n_features=256,
        citation="J. J. Hull, A database for handwritten text recognition research, "
        "IEEE Trans. PAMI 16(5):550-554, 1994.",
        source="https://hastie.su.domains/ElemStatLearn/data.html",
        license="no explicit license",
    ),

    DatasetSpec(
        name="20newsgroups",
        description="Rennie's 20news-bydate: raw Usenet posts (Latin-1), 20 newsgroups "
        "numbered 0-19 in alphabetical order (as scikit-learn does).",
        files=(
            RemoteFile(
                "20news-bydate.tar.gz",
                "f934583ecd65eae06e4d23af0fcb72ade56b76bad2279c0aed7d520aa6527b02",
                14387951,
                "http://qwone.com/~jason/20Newsgroups/20news-bydate.tar.gz",
                content_sha256="6e55aa92bc0071082b5cd34e3c8d66718a0f2a64a7d5e2e083f42b9cc4459d93",
                content_size=50288640,
                # scikit-learn's mirror of the original tarball, and its checksum
                # (sklearn/datasets/_twenty_newsgroups.py): accepted as an equivalent
                # copy, since our reference file is a re-pack of the same members.
                mirrors=("https://ndownloader.figshare.com/files/5975967",),
                alt_sha256=("8f1b2514ca22a5ade8fbb9cfa5727df95fa587f4c87b786e15c759fa66d95610",),
                note="the shared copy is a re-pack (same member files); the original "
                "tarball is accepted by its own sha256 8f1b2514...",
            ),
            RemoteFile(
                "20news-bydate.files.sha256.xz",
                "9be1bdd87e48bbd2e6f140f03ae6ed264433de906614b798311df960d56cbb34",
                656720,
                None,
                content_sha256="20701c5675b5327116388288aa3225c61bc1005708ccbda9bfb83c22891263d6",
                content_size=2042261,
                optional=True,
                note="per-member sha256 manifest of the re-packed archive",
            ),
        ),
        splits={"train": ("20news-bydate.tar.gz",), "test": ("20news-bydate.tar.gz",)},
        loader="20newsgroups",
        n_rows={"train": 11314, "test": 7532},
        n_features=None,
        citation="K. Lang, NewsWeeder: learning to filter netnews, ICML 1995; "
        "J. Rennie, 20 Newsgroups, http://qwone.com/~jason/20Newsgroups/.",
        source="http://qwone.com/~jason/20Newsgroups/",
        license="no explicit license (public Usenet posts, 1993)",
    ),

    DatasetSpec(
        name="mnist-test",
        description="MNIST test set: 10000 28x28 grey-level digits (LeCun's original "
        "idx files). The training images are not available in the reference folder.",
        files=(
            _mnist_file("t10k-images-idx3-ubyte.gz",
                        "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6",
                        1648877,
                        "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7",
                        7840016),
            _mnist_file("t10k-labels-idx1-ubyte.gz",
                        "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6",
                        4542,
                        "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2",
                        10008),
            _mnist_file("train-labels-idx1-ubyte.gz",
                        "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c",
                        28881,
                        "65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5",
                        60008, optional=True,
                        note="training labels without training images: not used by the "
                        "loader"),
        ),
        splits={"test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")},
        loader="mnist",
        n_rows={"test": 10000},
        n_features=784,
        citation="Y. LeCun, C. Cortes, C. J. C. Burges, The MNIST database of handwritten "
        "digits; Y. LeCun et al., Gradient-based learning applied to document "
        "recognition, Proc. IEEE 86(11), 1998.",
        source="http://yann.lecun.com/exdb/mnist/",
        license="CC BY-SA 3.0 (as stated on the MNIST page)",
        folder="mnist",
    ),

    DatasetSpec(
        name="sraa",
        description="SRAA (Simulated/Real/Aviation/Auto): UseNet articles from four "
        "discussion groups (folders realauto, realaviation, simauto, simaviation), one "
        "article per file with its header.",
        files=(
            RemoteFile(
                "sraa.tar.gz",
                None,  # not recorded: the archive was not obtainable when registered
                None,
                "http://www.cs.umass.edu/~mccallum/data/sraa.tar.gz",
                note="its checksum is not recorded (the archive could not be obtained when "
                "olc registered it); the loader checks the folder layout instead: "
                "sraa/{realauto,realaviation,simauto,simaviation}/<one article per file>",
            ),
        ),
        splits={"all": ("sraa.tar.gz",)},
        loader="sraa",
        n_rows={"all": 73218},  # as documented by the source page; not verified here
        n_features=None,
        citation="A. McCallum, SRAA: Simulated/Real/Aviation/Auto UseNet data, "
        "http://www.cs.umass.edu/~mccallum/data/sraa.tar.gz (used by Shen & Dietterich 2009, "
        "§4, and Nigam et al.).",
        source="http://www.cs.umass.edu/~mccallum/data/sraa.tar.gz",
        license="no explicit license (public Usenet posts)",
    ),
)

import io
import zipfile
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as z:
    z.writestr("data/train.csv", "x,y\n" + "1,2\n" * 100)
    z.writestr("README.txt", "hello")
print(len(buf.getvalue()) > 0)
with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:
    print(z.namelist())
    info = z.getinfo("data/train.csv")
    print(info.file_size, info.compress_size < info.file_size)
    print(z.read("README.txt"), z.read("data/train.csv")[:8])
print(zipfile.is_zipfile(io.BytesIO(buf.getvalue())))
